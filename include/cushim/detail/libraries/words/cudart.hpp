// What the CUDA runtime's hooks (cudart_hooks.hpp) say of the driver it needs, and the problem
// they record when the driver is too old.
#pragma once

#include <string>

#include "../../types/status_types.hpp"

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

// The problems its hook records.
namespace problems_of {

// `clause`: NVIDIA's minimum driver for that major, as a parenthesis, or empty).
inline problem driver_too_old(const std::string& driver, const std::string& runtime, const std::string& path,
                              int runtime_major, const std::string& clause) {
  return {error_code::version_mismatch,
          false,
          "the NVIDIA driver supports CUDA up to " + driver + ", older than the CUDA " + runtime + " runtime in use",
          path,
          "CUDA calls will fail with cudaErrorInsufficientDriver (35)",
          "update the NVIDIA driver to one that supports CUDA " + std::to_string(runtime_major) + clause +
              ", or use a build for an older CUDA"};
}

}  // namespace problems_of
}  // namespace
}  // namespace detail
}  // namespace cushim
