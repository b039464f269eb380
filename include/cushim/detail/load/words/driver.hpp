// What the driver's probe (load/driver.hpp) and the driver library's hook say of a file that is the
// CUDA toolkit's link-time stub of the driver, not the driver: known by its folder, or by its
// answer once loaded.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

constexpr const char* link_time_stub = "the CUDA toolkit's link-time stub, not the driver";

inline std::string stub_in_stubs_folder() {
  return std::string(link_time_stub) + ": remove its stubs folder from LD_LIBRARY_PATH";
}

// `code`: CUDA_ERROR_STUB_LIBRARY's value, what the stub answers every call with.
inline std::string stub_by_answer(int code) {
  return std::string(link_time_stub) + ": cuDriverGetVersion answers CUDA_ERROR_STUB_LIBRARY (" + std::to_string(code) +
         ")";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
