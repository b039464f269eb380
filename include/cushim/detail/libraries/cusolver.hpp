// cuSOLVER as data (CUSHIM_CUSOLVER): its dense, sparse and refactorization APIs (cusolverMg is a library of its own).
// Compiles without <cusolverDn.h>, <cusolverSp.h> and <cusolverRf.h>; what needs them is behind the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_CUSOLVER
template <>
struct fallback_status<cusolverStatus_t> {
  static constexpr cusolverStatus_t unavailable = CUSOLVER_STATUS_NOT_INITIALIZED;  // 1
  static constexpr cusolverStatus_t missing = CUSOLVER_STATUS_NOT_SUPPORTED;        // 9
};

constexpr bool cusolver_shimmed = true;
constexpr int cusolver_compiled_version = CUSOLVER_VERSION;
constexpr int cusolver_compiled_major = CUSOLVER_VER_MAJOR;
#else
constexpr bool cusolver_shimmed = false;
constexpr int cusolver_compiled_version = 0;
constexpr int cusolver_compiled_major = 0;
#endif

// cuSOLVER's own major names the file: 11 came with CUDA 11 and 12, 12 with CUDA 13.
constexpr major_file cusolver_files[] = {{11, {"libcusolver.so.11", "cusolver64_11.dll"}},
                                         {12, {"libcusolver.so.12", "cusolver64_12.dll"}}};
// pip wheels: nvidia/cusolver for CUDA 11 and 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* cusolver_pip_packages[] = {"cusolver", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* cusolver_zeroed_outputs[] = {"cusolverGetVersion", "cusolverGetProperty"};

inline constexpr library_descriptor cusolver_descriptor =
    describe_library(library::cusolver)
        .key("cusolver")
        .display_name("cuSOLVER")
        .in_sentence("cuSOLVER")
        .shimmed(cusolver_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CUSOLVER")
        .disabled_why("CUSHIM_CUSOLVER is not defined: the program links cuSOLVER itself, if it uses it")
        .compiled_version(cusolver_compiled_version)
        .compiled_major(cusolver_compiled_major)
        .files(cusolver_files)
        .link_name("cusolver")
        .version_function("cusolverGetVersion")
        .query_version(&query_int_version)
        .decode_version(&decode_toolkit_library_version)
        .encode_version(&encode_toolkit_library_version)
        .version_has_patch()
        .older_minor_effect("return CUSOLVER_STATUS_NOT_SUPPORTED")
        .override_variable("CUSHIM_CUSOLVER_PATH")
        .in_toolkit()
        .pip_packages(cusolver_pip_packages)
        .effect(
            "cusolver* calls return CUSOLVER_STATUS_NOT_INITIALIZED; cusolverGetVersion and cusolverGetProperty set 0")
        .unavailable_text("cushim: cuSOLVER is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded cuSOLVER lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CUSOLVER_STATUS_NOT_SUPPORTED")
        .blocked_returns("CUSOLVER_STATUS_NOT_INITIALIZED")
        .zeroed_outputs(cusolver_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// cuSOLVER's table lines (stubs.hpp): the group column is unused; `define` is CUSHIM_DEFINE_STUB or
// CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_cusolver(define, group, ret, name, params, args) \
  define(cusolver, CUSOLVERAPI, ret, name, params, args, group)
#define CUSHIM_HEADERS_cusolver "cuSOLVER headers (CUSOLVER_VERSION " CUSHIM_STRINGIFY(CUSOLVER_VERSION) ")"
