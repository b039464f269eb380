// nvJitLink as data (CUSHIM_NVJITLINK): its exports carry the headers' release (CUSHIM_NVJITLINK_NAME, api_tables.hpp).
// Compiles without <nvJitLink.h>; what needs them is behind the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_NVJITLINK
template <>
struct fallback_status<nvJitLinkResult> {
  static constexpr nvJitLinkResult unavailable = NVJITLINK_ERROR_INTERNAL;  // 6
  static constexpr nvJitLinkResult missing =
      NVJITLINK_ERROR_INTERNAL;  // 6: nvJitLink has no code for a missing function
};

constexpr bool nvjitlink_shimmed = true;
constexpr int nvjitlink_compiled_version = CUDART_VERSION;
constexpr int nvjitlink_compiled_major = CUSHIM_NVJITLINK_MAJOR;
#else
constexpr bool nvjitlink_shimmed = false;
constexpr int nvjitlink_compiled_version = 0;
constexpr int nvjitlink_compiled_major = 0;
#endif
// nvJitLink.h says no version; nvJitLink is the toolkit's, of the runtime headers' release.

constexpr major_file nvjitlink_files[] = {{12, {"libnvJitLink.so.12", "nvJitLink_120_0.dll"}},
                                          {13, {"libnvJitLink.so.13", "nvJitLink_130_0.dll"}}};
// pip wheels: nvidia/nvjitlink for CUDA 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* nvjitlink_pip_packages[] = {"nvjitlink", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* nvjitlink_zeroed_outputs[] = {"nvJitLinkVersion"};

inline constexpr library_descriptor nvjitlink_descriptor =
    describe_library(library::nvjitlink)
        .key("nvjitlink")
        .display_name("nvJitLink")
        .in_sentence("nvJitLink")
        .shimmed(nvjitlink_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_NVJITLINK")
        .disabled_why("CUSHIM_NVJITLINK is not defined: the program links nvJitLink itself, if it uses it")
        .compiled_version(nvjitlink_compiled_version)
        .compiled_major(nvjitlink_compiled_major)
        .files(nvjitlink_files)
        .link_name("nvJitLink")
        .version_function("nvJitLinkVersion")
        .query_version(&query_unsigned_major_minor)
        .decode_version(&decode_cuda_version)
        .encode_version(&encode_cuda_version)
        .older_minor_effect("return NVJITLINK_ERROR_INTERNAL")
        .override_variable("CUSHIM_NVJITLINK_PATH")
        .in_toolkit()
        .pip_packages(nvjitlink_pip_packages)
        .effect("nvJitLink* calls return NVJITLINK_ERROR_INTERNAL; nvJitLinkVersion sets 0.0")
        .unavailable_text("cushim: nvJitLink is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded nvJitLink lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("NVJITLINK_ERROR_INTERNAL")
        .blocked_returns("NVJITLINK_ERROR_INTERNAL")
        .zeroed_outputs(nvjitlink_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// nvJitLink's table lines (stubs.hpp): the group column is unused; `define` is CUSHIM_DEFINE_STUB or
// CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_nvjitlink(define, group, ret, name, params, args) define(nvjitlink, , ret, name, params, args, group)
#define CUSHIM_HEADERS_nvjitlink "nvJitLink headers of CUDA " CUSHIM_STRINGIFY(CUDART_VERSION)
