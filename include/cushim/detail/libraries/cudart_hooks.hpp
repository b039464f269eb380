// What only the CUDA runtime does (its record, tools/libraries.json, names each hook): a device
// count of 0 whenever the count fails, and the driver it needs.
#pragma once

#include <atomic>
#include <cstring>
#include <string>

#include "../search/compatibility.hpp"
#include "../search/descriptor.hpp"
#include "../search/words/loading.hpp"
#include "../report/report.hpp"
#include "words/cudart.hpp"

namespace cushim {
namespace detail {
namespace {

namespace cudart_hooks {

// cudart leaves *count untouched when it fails (no driver: error 35); cushim promises 0, as its
// own fallback gives, so callers that ignore the error still see no devices.
inline std::atomic<decltype(&::cudaGetDeviceCount)> real_device_count{nullptr};

inline cudaError_t CUDARTAPI device_count_zero_on_error(int* count) {
  cudaError_t e = real_device_count.load(std::memory_order_acquire)(count);
  if (e != cudaSuccess && count) *count = 0;
  return e;
}

inline platform::any_function wrap(const char* name, platform::any_function found) {
  if (std::strcmp(name, "cudaGetDeviceCount") != 0) return found;
  real_device_count.store(reinterpret_cast<decltype(&::cudaGetDeviceCount)>(found), std::memory_order_release);
  return reinterpret_cast<platform::any_function>(&device_count_zero_on_error);
}

// " (525.60.13 or newer: NVIDIA's minimum for CUDA 12.x)"; empty where NVIDIA names none.
inline std::string minimum_driver_clause(int cuda_major) {
  const minimum_driver_row* row = minimum_driver_for(cuda_major);
  const char* driver = !row ? nullptr : platform::windows_names ? row->windows_driver : row->linux_driver;
  return driver ? words::minimum_driver_clause(driver, cuda_major) : std::string();
}

// The driver must support the runtime's major: the problem belongs to the driver's section.
inline void cross_check(report& r, report_library& self) {
  const driver_status& d = r.driver.probe;
  const status& cudart = *self.st;
  if (!d.found || !d.cuda_version || cudart.code != error_code::ok || d.cuda_version / 1000 >= cudart.version / 1000) {
    return;
  }
  r.driver.problems.push_back(problems_of::driver_too_old(format_version(decode_cuda_version(d.cuda_version), false),
                                                          format_version(decode_cuda_version(cudart.version), false),
                                                          d.path, cudart.version / 1000,
                                                          minimum_driver_clause(cudart.version / 1000)));
}

}  // namespace cudart_hooks

}  // namespace
}  // namespace detail
}  // namespace cushim
