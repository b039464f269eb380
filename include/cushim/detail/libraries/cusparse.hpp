// cuSPARSE as data (CUSHIM_CUSPARSE). Compiles without <cusparse.h>; what needs
// them is behind the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_CUSPARSE
template <>
struct fallback_status<cusparseStatus_t> {
  static constexpr cusparseStatus_t unavailable = CUSPARSE_STATUS_NOT_INITIALIZED;  // 1
  static constexpr cusparseStatus_t missing = CUSPARSE_STATUS_NOT_SUPPORTED;        // 10
};

constexpr bool cusparse_shimmed = true;
constexpr int cusparse_compiled_version = CUSPARSE_VERSION;
constexpr int cusparse_compiled_major = CUSPARSE_VER_MAJOR;
#else
constexpr bool cusparse_shimmed = false;
constexpr int cusparse_compiled_version = 0;
constexpr int cusparse_compiled_major = 0;
#endif

// cuSPARSE's own major names the file: 11 came with CUDA 11, 12 with CUDA 12 and 13.
constexpr major_file cusparse_files[] = {{11, {"libcusparse.so.11", "cusparse64_11.dll"}},
                                         {12, {"libcusparse.so.12", "cusparse64_12.dll"}}};
// pip wheels: nvidia/cusparse for CUDA 11 and 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* cusparse_pip_packages[] = {"cusparse", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* cusparse_zeroed_outputs[] = {"cusparseGetProperty", "cusparseGetVersion"};

inline constexpr library_descriptor cusparse_descriptor =
    describe_library(library::cusparse)
        .key("cusparse")
        .display_name("cuSPARSE")
        .in_sentence("cuSPARSE")
        .shimmed(cusparse_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CUSPARSE")
        .disabled_why("CUSHIM_CUSPARSE is not defined: the program links cuSPARSE itself, if it uses it")
        .compiled_version(cusparse_compiled_version)
        .compiled_major(cusparse_compiled_major)
        .files(cusparse_files)
        .link_name("cusparse")
        .version_function("cusparseGetProperty")
        .query_version(&query_property_version)
        .decode_version(&decode_toolkit_library_version)
        .encode_version(&encode_toolkit_library_version)
        .version_has_patch()
        .older_minor_effect("return CUSPARSE_STATUS_NOT_SUPPORTED")
        .override_variable("CUSHIM_CUSPARSE_PATH")
        .in_toolkit()
        .pip_packages(cusparse_pip_packages)
        .effect(
            "cusparse* calls return CUSPARSE_STATUS_NOT_INITIALIZED; cusparseGetProperty and cusparseGetVersion set 0")
        .unavailable_text("cushim: cuSPARSE is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded cuSPARSE lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CUSPARSE_STATUS_NOT_SUPPORTED")
        .blocked_returns("CUSPARSE_STATUS_NOT_INITIALIZED")
        .zeroed_outputs(cusparse_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// cuSPARSE's table lines (stubs.hpp): the group column is unused; `define` is CUSHIM_DEFINE_STUB or
// CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_cusparse(define, group, ret, name, params, args) \
  define(cusparse, CUSPARSEAPI, ret, name, params, args, group)
#define CUSHIM_HEADERS_cusparse "cuSPARSE headers (CUSPARSE_VERSION " CUSHIM_STRINGIFY(CUSPARSE_VERSION) ")"
