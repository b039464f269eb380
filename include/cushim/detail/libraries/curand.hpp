// cuRAND as data (CUSHIM_CURAND): its host API, curand.h. Compiles without <curand.h>; what needs
// them is behind the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_CURAND
template <>
struct fallback_status<curandStatus_t> {
  static constexpr curandStatus_t unavailable = CURAND_STATUS_INITIALIZATION_FAILED;  // 203
  static constexpr curandStatus_t missing =
      CURAND_STATUS_VERSION_MISMATCH;  // 100: the library is older than the headers
};

constexpr bool curand_shimmed = true;
constexpr int curand_compiled_version = CURAND_VERSION;
constexpr int curand_compiled_major = CURAND_VER_MAJOR;
#else
constexpr bool curand_shimmed = false;
constexpr int curand_compiled_version = 0;
constexpr int curand_compiled_major = 0;
#endif

// cuRAND 10 for every CUDA 11, 12 and 13.
constexpr major_file curand_files[] = {{10, {"libcurand.so.10", "curand64_10.dll"}}};
// pip wheels: nvidia/curand for CUDA 11 and 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* curand_pip_packages[] = {"curand", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* curand_zeroed_outputs[] = {"curandGetVersion", "curandGetProperty"};

inline constexpr library_descriptor curand_descriptor =
    describe_library(library::curand)
        .key("curand")
        .display_name("cuRAND")
        .in_sentence("cuRAND")
        .shimmed(curand_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CURAND")
        .disabled_why("CUSHIM_CURAND is not defined: the program links cuRAND itself, if it uses it")
        .compiled_version(curand_compiled_version)
        .compiled_major(curand_compiled_major)
        .files(curand_files)
        .link_name("curand")
        .version_function("curandGetVersion")
        .query_version(&query_int_version)
        .decode_version(&decode_toolkit_library_version)
        .encode_version(&encode_toolkit_library_version)
        .version_has_patch()
        .older_minor_effect("return CURAND_STATUS_VERSION_MISMATCH")
        .override_variable("CUSHIM_CURAND_PATH")
        .in_toolkit()
        .pip_packages(curand_pip_packages)
        .effect(
            "curand* calls return CURAND_STATUS_INITIALIZATION_FAILED; curandGetVersion and curandGetProperty set 0")
        .unavailable_text("cushim: cuRAND is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded cuRAND lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CURAND_STATUS_VERSION_MISMATCH")
        .blocked_returns("CURAND_STATUS_INITIALIZATION_FAILED")
        .zeroed_outputs(curand_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// cuRAND's table lines (stubs.hpp): the group column is unused; `define` is CUSHIM_DEFINE_STUB or
// CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_curand(define, group, ret, name, params, args) \
  define(curand, CURANDAPI, ret, name, params, args, group)
#define CUSHIM_HEADERS_curand "cuRAND headers (CURAND_VERSION " CUSHIM_STRINGIFY(CURAND_VERSION) ")"
