// What the CUDA runtime's hooks (cudart_hooks.hpp) say of the driver it needs.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

// " (525.60.13 or newer: NVIDIA's minimum for CUDA 12.x)": `driver`, NVIDIA's minimum driver for
// `cuda_major`.
inline std::string minimum_driver_clause(const char* driver, int cuda_major) {
  return std::string(" (") + driver + " or newer: NVIDIA's minimum for CUDA " + std::to_string(cuda_major) + ".x)";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
