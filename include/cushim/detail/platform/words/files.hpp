// What cushim says of a file it checked, holds and loads: what is at its path (the platform's
// check_file and file_source), and when the file changed under it (file_pin and pinned_load report
// these); the attempts' details and the notes show them.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

// What check_file and file_source find at a path that is not a regular file.
constexpr const char* no_such_file = "no such file";
constexpr const char* folder_does_not_exist = "folder does not exist";
constexpr const char* folder_not_file = "a folder, not a file";
constexpr const char* not_regular_file = "not a regular file";
constexpr const char* not_regular_file_posix = "not a regular file (FIFO, device or socket)";
constexpr const char* not_regular_file_windows = "not a regular file (a device or pipe)";
// A /proc or /sys file: its size says 0 bytes, yet reading it gives something else than nothing.
constexpr const char* sizeless_file =
    "not a regular file with a size: the system says 0 bytes, but it reads otherwise (a /proc or /sys file)";

// A Windows error code with what the system (or cushim) says it means: "error 5 (Access is denied.)".
inline std::string error_code_text(unsigned long code, const std::string& meaning) {
  return "error " + std::to_string(code) + (meaning.empty() ? "" : " (" + meaning + ")");
}

constexpr const char* no_longer_regular_file = "it is now not a regular file (FIFO, device or socket)";
constexpr const char* file_replaced = "another file is at its path now, or it was rewritten";
constexpr const char* file_being_written = "another process has it open for writing: it is being written now";
constexpr const char* loader_mapped_another_file =
    "the system loader mapped another file than the one cushim held: another file was put at its path";
// Windows' file_pin: the file could not be opened with no sharing but reading (`error`:
// error_code_text), or what is at its path is not a regular file now (`what`: check_file's detail).
inline std::string cannot_hold_for_load(const std::string& error) { return "it cannot be held for the load: " + error; }
inline std::string now_not_regular_file(const std::string& what) { return "it is now " + what; }
constexpr const char* fifo_wait_ended =
    "the system loader waited on a FIFO for a writer that never comes (one put at its path, or where it "
    "looks for a library this one needs), and cushim ended the wait";

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
