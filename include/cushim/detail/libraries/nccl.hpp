// NCCL as data (CUSHIM_NCCL): libnccl.so.2, versioned on its own (2.x), Linux only (api_tables.hpp
// stops a Windows build that defines the macro). Compiles without <nccl.h>; what needs it is behind
// the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_NCCL
template <>
struct fallback_status<ncclResult_t> {
  static constexpr ncclResult_t unavailable = ncclSystemError;  // 2: a system call or library it needs failed
  static constexpr ncclResult_t missing = ncclInternalError;    // 3
};

constexpr bool nccl_shimmed = true;
constexpr int nccl_compiled_version = NCCL_VERSION_CODE;
constexpr int nccl_compiled_major = NCCL_MAJOR;
#else
constexpr bool nccl_shimmed = false;
constexpr int nccl_compiled_version = 0;
constexpr int nccl_compiled_major = 0;
#endif

constexpr major_file nccl_files[] = {{2, {"libnccl.so.2", "nccl.dll"}}};
// pip wheels: nvidia/nccl (nvidia-nccl-cu12, -cu13).
constexpr const char* nccl_pip_packages[] = {"nccl"};
constexpr const char* nccl_zeroed_outputs[] = {"ncclGetVersion"};

inline constexpr library_descriptor nccl_descriptor =
    describe_library(library::nccl)
        .key("nccl")
        .display_name("NCCL")
        .in_sentence("NCCL")
        .shimmed(nccl_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_NCCL")
        .disabled_why("CUSHIM_NCCL is not defined: the program links NCCL itself, if it uses it")
        .compiled_version(nccl_compiled_version)
        .compiled_major(nccl_compiled_major)
        .files(nccl_files)
        .link_name("nccl")
        .version_function("ncclGetVersion")
        .query_version(&query_int_version)
        .decode_version(&decode_nccl_version)
        .encode_version(&encode_nccl_version)
        .version_has_patch()
        .older_minor_effect("return ncclInternalError")
        .override_variable("CUSHIM_NCCL_PATH")
        .in_toolkit()  // installed beside the toolkit's libraries as often as on its own
        .pip_packages(nccl_pip_packages)
        .effect("nccl* calls return ncclSystemError; ncclGetVersion sets 0")
        .unavailable_text("cushim: NCCL is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded NCCL lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("ncclInternalError")
        .blocked_returns("ncclSystemError")
        .zeroed_outputs(nccl_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// NCCL's table lines (stubs.hpp): the group column is unused; nccl.h declares no calling convention.
#define CUSHIM_API_nccl(define, group, ret, name, params, args) define(nccl, , ret, name, params, args, group)
#define CUSHIM_HEADERS_nccl "NCCL headers (NCCL_VERSION_CODE " CUSHIM_STRINGIFY(NCCL_VERSION_CODE) ")"
