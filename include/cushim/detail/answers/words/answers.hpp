// What the answers to the public API say beyond each library's own problems: the report's notes
// of the whole process, what status_of() says of the other copies it lists, and explain()'s
// answer when it cannot build the report.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

// The report's note when the system runs the process with more rights than its caller has.
constexpr const char* secure_execution_note =
    "this process runs in secure-execution mode (AT_SECURE: a setuid or setgid program, or one with file "
    "capabilities): cushim read none of the environment variables that steer what it loads (CUSHIM_*, "
    "CUDNN_PATH, CUDNN_HOME, CUDNN_ROOT_DIR, CUDA_PATH, CUDA_HOME, CONDA_PREFIX, VIRTUAL_ENV, HOME), as the "
    "system loader ignores LD_LIBRARY_PATH there: they are the caller's, and the program runs with more rights";

// configure() refused: the libraries already loaded were found with the options before it.
constexpr const char* configure_too_late_note =
    "configure() was called after a library was loaded; the new options were ignored. Call it "
    "before the first cudnn*/cuda* call, available(), status_of() or explain()";

constexpr const char* explain_out_of_memory = "cushim: explain() ran out of memory";

// status.other_copies: a copy later in the search than the one loaded, and one of another major
// in a folder searched (`compiled_file`: the file name of the major this program was compiled for).
constexpr const char* other_copy_shadowed = "not loaded: an earlier candidate won";
inline std::string other_copy_of_another_major(const char* compiled_file) {
  return std::string("another major version; this program needs ") + compiled_file;
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
