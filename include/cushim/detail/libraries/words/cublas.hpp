// What cuBLAS's hook (cublas_hooks.hpp) says of the cuBLASLt in the process.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

// The cuBLASLt cuBLAS would run with (`path`) is of another release (`version`: "13.0.2").
inline std::string cublaslt_of_other_release(const std::string& path, const std::string& version) {
  return "the cuBLASLt it runs with, " + path + ", is " + version +
         ": cuBLAS and cuBLASLt of two releases (install them together, from one release)";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
