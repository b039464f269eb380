// What cushim says when it cannot start a probe child on Windows, which has no fork: the child is
// options.probe_program, started with CreateProcessW. The note no_probe_child shows these.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

constexpr const char* no_probe_program =
    "Windows has no fork, and no probe_program (options.probe_program or CUSHIM_PROBE_PROGRAM) "
    "names a program that serves its requests";
inline std::string probe_program_not_absolute(const std::string& program) {
  return "probe_program " + program + " is not an absolute path";
}
// The probe child itself asked for a probe: it starts no child of its own.
constexpr const char* serving_probe_request = "this process serves a probe request itself";
// `error`: the system's message for CreateProcessW's error code.
inline std::string probe_program_not_started(const std::string& program, const std::string& error) {
  return "probe_program " + program + " could not be started: " + error;
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
