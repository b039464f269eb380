// probe_in_child's work in the child, and the public serve_probe_request, with which a program
// serves requests (Windows: options.probe_program). The same on every platform.
#pragma once

#include <string>

#include "../load/driver.hpp"
#include "../load/copy_acceptance.hpp"
#include "../platform/local_binding.hpp"
#include "../probe/probe_request.hpp"

namespace cushim {
namespace detail {
namespace {

// What the child checks depends only on the request. A request for something this cushim does not
// know takes no step.
template <class Request>
void run_child_request(const Request& request, int fd) {
  if (request.what == "driver") return check_driver_in_child(request.path, fd);
  if (request.what == load_only_request) return load_file_in_child(request.path, fd);
  for (int i = 0; i < library_count; ++i) {
    library_state& lib = state_of(library(i));
    if (request.what == lib.desc->key) return check_copy_in_child(lib, request.path, fd);
  }
}

}  // namespace
}  // namespace detail

CUSHIM_LOCAL_BINDING void serve_probe_request(int argc, char** argv) {
  detail::probe_request request;
  if (!detail::platform::probe_request_in_arguments(argc, argv, request)) return;
  detail::platform::prepare_probe_child();
  detail::run_child_request(request, 1);
  detail::platform::end_probe_child();
}

}  // namespace cushim
