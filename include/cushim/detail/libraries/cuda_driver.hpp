// The CUDA driver API as data (CUSHIM_CUDA_DRIVER): libcuda.so.1 / nvcuda.dll, searched only where
// the system installs the driver, never a toolkit's link-time stub, with no override; its status is
// also the report's "NVIDIA driver" section. Compiles without <cuda.h>.
#pragma once

#include <string>

#include "../candidate_check.hpp"
#include "../descriptor.hpp"
#include "../driver.hpp"
#include "../fallback_status.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_CUDA_DRIVER
template <>
struct fallback_status<CUresult> {
  static constexpr CUresult unavailable = CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;   // 303
  static constexpr CUresult missing = CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;  // 302
};

constexpr bool driver_shimmed = true;
constexpr int driver_compiled_version = CUDA_VERSION;
constexpr int driver_compiled_major = CUSHIM_CUDA_DRIVER_MAJOR;
#else
constexpr bool driver_shimmed = false;
constexpr int driver_compiled_version = 0;
constexpr int driver_compiled_major = 0;
#endif

namespace driver_hooks {

// cuDriverGetVersion(&v): the newest CUDA the driver supports; it works before cuInit and without
// a GPU. 0 when it fails.
inline long query_version(platform::any_function f) {
  int version = 0;
  if (reinterpret_cast<int (*)(int*)>(f)(&version) != 0) return 0;
  return version;
}

// The toolkit's stub answers every call with CUDA_ERROR_STUB_LIBRARY: never the driver.
inline outcome refuse_link_time_stub(candidate_check& c) {
  if (in_stubs_folder(c.path)) {
    c.detail = stub_in_folder_detail();
  } else if (driver_cuda_version(c.handle) < 0) {
    c.detail = stub_by_answer_detail();
  } else {
    return outcome::loaded;
  }
  c.lib.link_time_stubs.push_back(c.path);  // the report's driver section lists them
  return outcome::not_the_library;
}

}  // namespace driver_hooks

// One file for every major: the driver of any release is libcuda.so.1 / nvcuda.dll.
constexpr major_file driver_files[] = {{driver_compiled_major, {"libcuda.so.1", "nvcuda.dll"}}};
constexpr const char* driver_zeroed_outputs[] = {"cuDriverGetVersion", "cuDeviceGetCount"};
constexpr const char* driver_text_outputs[] = {"cuGetErrorString", "cuGetErrorName"};

inline constexpr library_descriptor driver_descriptor =
    describe_library(library::driver)
        .key("driver")
        .display_name("CUDA driver API")
        .in_sentence("the CUDA driver API")
        .shimmed(driver_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CUDA_DRIVER")
        .disabled_why("CUSHIM_CUDA_DRIVER is not defined: the program links the driver API itself, if it uses it")
        .compiled_version(driver_compiled_version)
        .compiled_major(driver_compiled_major)
        .files(driver_files)
        .link_name("cuda")
        .version_function("cuDriverGetVersion")
        .query_version(&driver_hooks::query_version)
        .decode_version(&decode_cuda_version)
        .encode_version(&encode_cuda_version)
        .newer_major_works()
        .older_minor_works()
        .older_minor_effect("return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND")
        .system_only()
        .reports_driver()
        .effect(
            "cu* calls return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED; cuDriverGetVersion and cuDeviceGetCount set 0; "
            "cuGetErrorString and cuGetErrorName give a text that points at cushim::explain()")
        .unavailable_text("cushim: the CUDA driver API is unavailable; cushim::explain() says why and what to do")
        .missing_text(
            "cushim: the loaded NVIDIA driver lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND")
        .blocked_returns("CUDA_ERROR_SHARED_OBJECT_INIT_FAILED")
        .zeroed_outputs(driver_zeroed_outputs)
        .text_outputs(driver_text_outputs)
        .before_version(&driver_hooks::refuse_link_time_stub)
        .install_advice(&platform::driver_install_advice);

}  // namespace
}  // namespace detail
}  // namespace cushim

// The driver API's table lines (stubs.hpp): the group column is unused; `define` is
// CUSHIM_DEFINE_STUB or CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_driver(define, group, ret, name, params, args) \
  define(driver, CUDAAPI, ret, name, params, args, group)
#define CUSHIM_HEADERS_driver "CUDA driver API headers (CUDA_VERSION " CUSHIM_STRINGIFY(CUDA_VERSION) ")"
