// cuFFT as data (CUSHIM_CUFFT). Compiles without <cufft.h> and <cufftXt.h>; what needs
// them is behind the macro.
#pragma once

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../version_queries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_CUFFT
template <>
struct fallback_status<cufftResult> {
  static constexpr cufftResult unavailable = CUFFT_SETUP_FAILED;  // 7: the library failed to initialize
  static constexpr cufftResult missing = CUFFT_NOT_SUPPORTED;     // 16
};

constexpr bool cufft_shimmed = true;
constexpr int cufft_compiled_version = CUFFT_VERSION;
constexpr int cufft_compiled_major = CUFFT_VER_MAJOR;
#else
constexpr bool cufft_shimmed = false;
constexpr int cufft_compiled_version = 0;
constexpr int cufft_compiled_major = 0;
#endif

// cuFFT's own major names the file: cuFFT 10 came with CUDA 11, 11 with 12, 12 with 13.
constexpr major_file cufft_files[] = {{10, {"libcufft.so.10", "cufft64_10.dll"}},
                                      {11, {"libcufft.so.11", "cufft64_11.dll"}},
                                      {12, {"libcufft.so.12", "cufft64_12.dll"}}};
// pip wheels: nvidia/cufft for CUDA 11 and 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* cufft_pip_packages[] = {"cufft", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* cufft_zeroed_outputs[] = {"cufftGetVersion", "cufftGetProperty"};

inline constexpr library_descriptor cufft_descriptor =
    describe_library(library::cufft)
        .key("cufft")
        .display_name("cuFFT")
        .in_sentence("cuFFT")
        .shimmed(cufft_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CUFFT")
        .disabled_why("CUSHIM_CUFFT is not defined: the program links cuFFT itself, if it uses it")
        .compiled_version(cufft_compiled_version)
        .compiled_major(cufft_compiled_major)
        .files(cufft_files)
        .link_name("cufft")
        .version_function("cufftGetVersion")
        .query_version(&query_int_version)
        .decode_version(&decode_toolkit_library_version)
        .encode_version(&encode_toolkit_library_version)
        .version_has_patch()
        .older_minor_effect("return CUFFT_NOT_SUPPORTED")
        .override_variable("CUSHIM_CUFFT_PATH")
        .in_toolkit()
        .pip_packages(cufft_pip_packages)
        .effect("cufft* calls return CUFFT_SETUP_FAILED; cufftGetVersion and cufftGetProperty set 0")
        .unavailable_text("cushim: cuFFT is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded cuFFT lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CUFFT_NOT_SUPPORTED")
        .blocked_returns("CUFFT_SETUP_FAILED")
        .zeroed_outputs(cufft_zeroed_outputs);

}  // namespace
}  // namespace detail
}  // namespace cushim

// cuFFT's table lines (stubs.hpp): the group column is unused; `define` is CUSHIM_DEFINE_STUB or
// CUSHIM_DEFINE_DECLARED_STUB.
// cufft.h's CUFFTAPI is __stdcall on Windows and a visibility attribute elsewhere, which the stubs set
// themselves.
#ifdef _WIN32
#define CUSHIM_CUFFT_CONV CUFFTAPI
#else
#define CUSHIM_CUFFT_CONV
#endif
#define CUSHIM_API_cufft(define, group, ret, name, params, args) \
  define(cufft, CUSHIM_CUFFT_CONV, ret, name, params, args, group)
#define CUSHIM_HEADERS_cufft "cuFFT headers (CUFFT_VERSION " CUSHIM_STRINGIFY(CUFFT_VERSION) ")"
