// cuBLASLt as data, shimmed with cuBLAS when the program defines CUSHIM_CUBLAS: the library
// cuBLAS imports, and one cuDNN 9 loads by name for some engines. Compiles without <cublasLt.h>;
// what needs it is behind the macro.
#pragma once

#include <cstddef>

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_CUBLAS
// cuBLAS and cuBLASLt share their status type.
template <>
struct fallback_status<cublasStatus_t> {
  static constexpr cublasStatus_t unavailable = CUBLAS_STATUS_NOT_INITIALIZED;  // 1
  static constexpr cublasStatus_t missing = CUBLAS_STATUS_NOT_SUPPORTED;        // 15
};

constexpr bool cublas_shimmed = true;
constexpr int cublas_compiled_version = CUBLAS_VERSION;
constexpr int cublas_compiled_major = CUSHIM_CUBLAS_MAJOR;
#else
constexpr bool cublas_shimmed = false;
constexpr int cublas_compiled_version = 0;
constexpr int cublas_compiled_major = 0;
#endif

namespace cublaslt_hooks {

// size_t cublasLtGetVersion(void): CUBLAS_VERSION's encoding; it needs no GPU.
inline long query_version(platform::any_function f) { return long(reinterpret_cast<std::size_t (*)()>(f)()); }

}  // namespace cublaslt_hooks

constexpr major_file cublaslt_files[] = {{11, {"libcublasLt.so.11", "cublasLt64_11.dll"}},
                                         {12, {"libcublasLt.so.12", "cublasLt64_12.dll"}},
                                         {13, {"libcublasLt.so.13", "cublasLt64_13.dll"}}};
// pip wheels: nvidia/cublas for CUDA 11 and 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* cublas_pip_packages[] = {"cublas", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* cublaslt_zeroed_outputs[] = {"cublasLtGetProperty"};

inline constexpr library_descriptor cublaslt_descriptor =
    describe_library(library::cublasLt)
        .key("cublasLt")
        .display_name("cuBLASLt")
        .in_sentence("cuBLASLt")
        .shimmed(cublas_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CUBLAS")
        .disabled_why("CUSHIM_CUBLAS is not defined: the program links cuBLASLt itself, if it uses it")
        .compiled_version(cublas_compiled_version)
        .compiled_major(cublas_compiled_major)
        .files(cublaslt_files)
        .link_name("cublasLt")
        .version_function("cublasLtGetVersion")
        .query_version(&cublaslt_hooks::query_version)
        .decode_version(&decode_cublas_version)
        .encode_version(&encode_cublas_version)
        .version_has_patch()
        .older_minor_effect("return CUBLAS_STATUS_NOT_SUPPORTED")
        .override_variable("CUSHIM_CUBLASLT_PATH")
        .in_toolkit()
        .pip_packages(cublas_pip_packages)
        .effect("cublasLt* calls return CUBLAS_STATUS_NOT_INITIALIZED; cublasLtGetVersion returns 0")
        .unavailable_text("cushim: cuBLASLt is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded cuBLASLt lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CUBLAS_STATUS_NOT_SUPPORTED")
        .blocked_returns("CUBLAS_STATUS_NOT_INITIALIZED")
        .zeroed_outputs(cublaslt_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// cuBLASLt's table lines (stubs.hpp): the group column is unused; `define` is
// CUSHIM_DEFINE_STUB or CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_cublasLt(define, group, ret, name, params, args) \
  define(cublasLt, CUBLASWINAPI, ret, name, params, args, group)
#define CUSHIM_HEADERS_cublasLt "cuBLASLt headers of CUDA " CUSHIM_STRINGIFY(CUDART_VERSION)
