// probe_in_child's request: which file a child process loads and checks, and as what. The same
// for a fork child (Linux) and a program started for it (Windows, options.probe_program), which
// finds it on its command line after probe_request_argument.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {

struct probe_request {
  std::string what;  // a library as to_string(library) names it ("cudnn"), or "driver"
  std::string path;  // the candidate file (UTF-8, absolute)
};

// The first argument of a probe program's command line that makes it serve a request.
constexpr const char* probe_request_argument = "--cushim-probe-child";

// The child's work: loads the file and takes the checks this process would take, naming each step
// on fd before it takes it. Declared here for the loader and the driver probe, whose work it is;
// defined in child_work.hpp, after them, which implementation.hpp includes. A template (only ever
// of probe_request) because an internal function declared and never defined is an error in a
// translation unit that includes its callers without child_work.hpp (tests/check_headers_alone.sh).
template <class Request>
void run_child_request(const Request& request, int fd);

}  // namespace
}  // namespace detail
}  // namespace cushim
