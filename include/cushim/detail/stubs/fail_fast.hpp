// The opt-in fail-fast policy (options.fail_fast, CUSHIM_FAIL_FAST=1), for programs that would
// rather stop at the first call that cannot work than run on with error codes. The only place
// cushim ends the process; tests/check_no_abort.sh allows it here and nowhere else.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "words/calls.hpp"

namespace cushim {

std::string explain();

namespace detail {
namespace {

[[noreturn]] inline void stop_the_process(const char* library_name, const char* function) {
  std::string text = words::fail_fast_stop(library_name, function) + "\n" + explain();
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace
}  // namespace detail
}  // namespace cushim
