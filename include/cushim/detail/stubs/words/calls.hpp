// What a stub says of a call it cannot make: a function its library does not export (the log
// callback's line, once per function), and the fail_fast stop (on stderr, before explain()).
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

inline std::string function_not_exported(const char* library_name, const char* function, const std::string& path) {
  return std::string("cushim: ") + library_name + ": " + function + " is not exported by " + path +
         "; calls to it return the 'not supported' fallback";
}

inline std::string fail_fast_stop(const char* library_name, const char* function) {
  return std::string("cushim: ") + function + " cannot reach " + library_name +
         ", and fail_fast is set (options.fail_fast or CUSHIM_FAIL_FAST=1): stopping the process.";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
