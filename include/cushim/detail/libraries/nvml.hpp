// NVML as data (CUSHIM_NVML): the driver's management library, libnvidia-ml.so.1 / nvml.dll, found
// only where the driver installs it (like libcuda), with no override. Its version is the newest CUDA
// its driver supports; the management library of an older or newer driver serves what it has.
// Compiles without <nvml.h>; what needs it is behind the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_NVML
template <>
struct fallback_status<nvmlReturn_t> {
  static constexpr nvmlReturn_t unavailable = NVML_ERROR_LIBRARY_NOT_FOUND;  // 12
  static constexpr nvmlReturn_t missing = NVML_ERROR_FUNCTION_NOT_FOUND;     // 13
};

constexpr bool nvml_shimmed = true;
// nvml.h says the API's generation, not a release: NVML is compared with the runtime headers' CUDA.
constexpr int nvml_compiled_version = CUDART_VERSION;
constexpr int nvml_compiled_major = CUSHIM_CUDART_MAJOR;
#else
constexpr bool nvml_shimmed = false;
constexpr int nvml_compiled_version = 0;
constexpr int nvml_compiled_major = 0;
#endif

namespace nvml_hooks {

inline const char* install_advice() {
  return platform_text(
      {"install the NVIDIA driver for your GPU (it provides libnvidia-ml.so.1); in a container, "
       "start it with the NVIDIA container toolkit (--gpus all)",
       "install the NVIDIA driver for your GPU (it provides nvml.dll in System32)"});
}

}  // namespace nvml_hooks

// One file for every release: the driver's.
constexpr major_file nvml_files[] = {{nvml_compiled_major, {"libnvidia-ml.so.1", "nvml.dll"}}};
constexpr const char* nvml_zeroed_outputs[] = {"nvmlSystemGetCudaDriverVersion", "nvmlSystemGetCudaDriverVersion_v2",
                                               "nvmlDeviceGetCount_v2"};

inline constexpr library_descriptor nvml_descriptor =
    describe_library(library::nvml)
        .key("nvml")
        .display_name("NVML")
        .in_sentence("NVML")
        .shimmed(nvml_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_NVML")
        .disabled_why("CUSHIM_NVML is not defined: the program links NVML itself, if it uses it")
        .compiled_version(nvml_compiled_version)
        .compiled_major(nvml_compiled_major)
        .files(nvml_files)
        .link_name("nvidia-ml")
        .version_function("nvmlSystemGetCudaDriverVersion")
        .query_version(&query_int_version)
        .decode_version(&decode_cuda_version)
        .encode_version(&encode_cuda_version)
        .newer_major_works()
        .older_major_works()
        .older_minor_works()
        .older_minor_effect("return NVML_ERROR_FUNCTION_NOT_FOUND")
        .system_only()
        .effect(
            "nvml* calls return NVML_ERROR_LIBRARY_NOT_FOUND; nvmlSystemGetCudaDriverVersion and "
            "nvmlDeviceGetCount set 0")
        .unavailable_text("cushim: NVML is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded NVML lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("NVML_ERROR_FUNCTION_NOT_FOUND")
        .blocked_returns("NVML_ERROR_LIBRARY_NOT_FOUND")
        .zeroed_outputs(nvml_zeroed_outputs)
        .install_advice(&nvml_hooks::install_advice);

}  // namespace
}  // namespace detail
}  // namespace cushim

// NVML's table lines (stubs.hpp): the group column is unused; nvml.h declares no calling convention.
#define CUSHIM_API_nvml(define, group, ret, name, params, args) define(nvml, , ret, name, params, args, group)
#define CUSHIM_HEADERS_nvml "NVML headers (NVML_API_VERSION " CUSHIM_STRINGIFY(NVML_API_VERSION) ")"
