// The CUDA runtime as data, and the hooks only it has: a device count of 0 whenever the count
// fails, and the driver it needs.
#pragma once

#include <atomic>
#include <cstring>
#include <string>

#include "../api_tables.hpp"
#include "../compatibility.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../words/loading.hpp"
#include "../report.hpp"

namespace cushim {
namespace detail {
namespace {

template <>
struct fallback_status<cudaError_t> {
  static constexpr cudaError_t unavailable = cudaErrorSharedObjectInitFailed;  // 303
  static constexpr cudaError_t missing = cudaErrorSharedObjectSymbolNotFound;  // 302
};

namespace cudart_hooks {

// cudaRuntimeGetVersion(&v); 0 when it fails.
inline long query_version(platform::any_function f) {
  int reported = 0;
  if (reinterpret_cast<decltype(&::cudaRuntimeGetVersion)>(f)(&reported) != cudaSuccess) reported = 0;
  return reported;
}

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
  if (!driver) return {};
  return std::string(" (") + driver + " or newer: NVIDIA's minimum for CUDA " + std::to_string(cuda_major) + ".x)";
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

#ifdef CUSHIM_NO_CUDART
constexpr bool cudart_shimmed = false;
#else
constexpr bool cudart_shimmed = true;
#endif

constexpr major_file cudart_files[] = {{11, {"libcudart.so.11.0", "cudart64_110.dll"}},
                                       {12, {"libcudart.so.12", "cudart64_12.dll"}},
                                       {13, {"libcudart.so.13", "cudart64_13.dll"}}};
constexpr const char* cudart_pip_packages[] = {"cuda_runtime", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* cudart_zeroed_outputs[] = {"cudaGetDeviceCount", "cudaRuntimeGetVersion", "cudaDriverGetVersion"};
// nvcc's start-up code registers a program's kernels and variables before main, and unregisters
// them at exit; a launch (__cudaPushCallConfiguration, cudaLaunchKernel) is the first real call.
constexpr const char* cudart_startup_functions[] = {
    "__cudaRegisterFatBinary",    "__cudaRegisterFatBinaryEnd", "__cudaRegisterFunction", "__cudaRegisterVar",
    "__cudaRegisterManagedVar",   "__cudaRegisterHostVar",      "__cudaRegisterTexture",  "__cudaRegisterSurface",
    "__cudaRegisterUnifiedTable", "__cudaUnregisterFatBinary"};

// Measured with CUDA 13.0 and a FIFO named libcuda.so.1 where the system loader looks: every other
// call waits on it (cudaGetErrorString and cudaGetLastError too); nvcc's registrations do not.
constexpr const char* cudart_driver_free_functions[] = {"cudaRuntimeGetVersion"};

inline constexpr library_descriptor cudart_descriptor =
    describe_library(library::cudart)
        .key("cudart")
        .display_name("CUDA runtime")
        .in_sentence("the CUDA runtime")
        .shimmed(cudart_shimmed)
        .disabled_by("CUSHIM_NO_CUDART")
        .disabled_why("CUSHIM_NO_CUDART is defined: the program links the CUDA runtime itself (cudart_static)")
        .compiled_version(CUDART_VERSION)
        .compiled_major(CUSHIM_CUDART_MAJOR)
        .files(cudart_files)
        .link_name("cudart")
        .version_function("cudaRuntimeGetVersion")
        .query_version(&cudart_hooks::query_version)
        .decode_version(&decode_cuda_version)
        .encode_version(&encode_cuda_version)
        .ask_file_when_zero()
        .older_minor_effect("return cudaErrorSharedObjectSymbolNotFound")
        .override_variable("CUSHIM_CUDART_PATH")
        .in_toolkit()
        .pip_packages(cudart_pip_packages)
        .effect(
            "cuda* calls and kernel launches return cudaErrorSharedObjectInitFailed; the program's own kernels "
            "and variables were registered as no-ops; count and version queries set 0")
        .unavailable_text("cushim: the CUDA runtime is unavailable; cushim::explain() says why and what to do")
        .missing_text(
            "cushim: the loaded CUDA runtime lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("cudaErrorSharedObjectSymbolNotFound")
        .blocked_returns("cudaErrorSharedObjectInitFailed")
        .zeroed_outputs(cudart_zeroed_outputs)
        .wrap(&cudart_hooks::wrap)
        .cross_check(&cudart_hooks::cross_check)
        .startup_functions(cudart_startup_functions)
        .loads_driver_by_name_but_in(cudart_driver_free_functions);

}  // namespace
}  // namespace detail
}  // namespace cushim

// The runtime's table lines (stubs.hpp): the group column is the tier, and CUSHIM_CUDART_CORE
// keeps only the core one. `define` is CUSHIM_DEFINE_STUB or CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_cudart(define, tier, ret, name, params, args) \
  CUSHIM_API_cudart_##tier(define, ret, name, params, args)
#define CUSHIM_API_cudart_core(define, ret, name, params, args) define(cudart, CUDARTAPI, ret, name, params, args, core)
#ifdef CUSHIM_CUDART_CORE
#define CUSHIM_API_cudart_full(define, ret, name, params, args)
#else
#define CUSHIM_API_cudart_full(define, ret, name, params, args) define(cudart, CUDARTAPI, ret, name, params, args, full)
#endif
#define CUSHIM_HEADERS_cudart "CUDA runtime headers (CUDART_VERSION " CUSHIM_STRINGIFY(CUDART_VERSION) ")"
