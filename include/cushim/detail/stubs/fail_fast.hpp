// The opt-in fail-fast policy (options.fail_fast, CUSHIM_FAIL_FAST=1), for programs that would
// rather stop at the first call that cannot work than run on with error codes. The only place
// cushim ends the process; tests/check_no_abort.sh allows it here and nowhere else.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cushim {

std::string explain();

namespace detail {
namespace {

[[noreturn]] inline void stop_the_process(const char* library_name, const char* function) {
  std::string text = std::string("cushim: ") + function + " cannot reach " + library_name +
                     ", and fail_fast is set (options.fail_fast or CUSHIM_FAIL_FAST=1): stopping the process.\n" +
                     explain();
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace
}  // namespace detail
}  // namespace cushim
