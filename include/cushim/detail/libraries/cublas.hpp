// cuBLAS as data (CUSHIM_CUBLAS), and the hook only it has: it imports the cuBLASLt of its own
// release, so the cuBLASLt in the process must be that one. Compiles without <cublas_v2.h>.
#pragma once

#include <string>

#include "../candidate_check.hpp"
#include "../descriptor.hpp"
#include "cublasLt.hpp"

namespace cushim {
namespace detail {
namespace {

namespace cublas_hooks {

// cublasGetProperty(MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL: 0, 1, 2 of libraryPropertyType),
// in CUBLAS_VERSION's encoding; it needs no GPU. 0 when a call fails.
inline long query_version(platform::any_function f) {
  auto get_property = reinterpret_cast<int (*)(int, int*)>(f);
  int parts[3] = {0, 0, 0};
  for (int type = 0; type < 3; ++type) {
    if (get_property(type, &parts[type]) != 0) return 0;
  }
  return encode_cublas_version(parts[0], parts[1], parts[2]);
}

// cuBLAS imports cuBLASLt by name (libcublas.so.13 needs libcublasLt.so.13), so once cuBLAS is
// loaded, the cuBLASLt in the process is the one its calls reach: one of another release, loaded
// before it from elsewhere, makes a pair NVIDIA never shipped. Refused, naming both.
inline outcome check_cublaslt_release(candidate_check& c) {
  std::string path;
  platform::library_handle h = platform::find_loaded(compiled_file_name(cublaslt_descriptor), path);
  if (!h) return outcome::loaded;
  platform::any_function f = platform::find_symbol(h, cublaslt_descriptor.version_function);
  long lt = f ? cublaslt_hooks::query_version(f) : 0;
  platform::unload_library(h);
  if (!lt || lt == c.version) return outcome::loaded;
  c.detail += "; the cuBLASLt it runs with, " + path + ", is " + version_text(cublaslt_descriptor, lt) +
              ": cuBLAS and cuBLASLt of two releases (install them together, from one release)";
  return outcome::wrong_version;
}

}  // namespace cublas_hooks

constexpr major_file cublas_files[] = {{11, {"libcublas.so.11", "cublas64_11.dll"}},
                                       {12, {"libcublas.so.12", "cublas64_12.dll"}},
                                       {13, {"libcublas.so.13", "cublas64_13.dll"}}};
constexpr const char* cublas_zeroed_outputs[] = {"cublasGetVersion_v2", "cublasGetProperty"};

inline constexpr library_descriptor cublas_descriptor =
    describe_library(library::cublas)
        .key("cublas")
        .display_name("cuBLAS")
        .in_sentence("cuBLAS")
        .shimmed(cublas_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_CUBLAS")
        .disabled_why("CUSHIM_CUBLAS is not defined: the program links cuBLAS itself, if it uses it")
        .compiled_version(cublas_compiled_version)
        .compiled_major(cublas_compiled_major)
        .files(cublas_files)
        .link_name("cublas")
        .version_function("cublasGetProperty")
        .query_version(&cublas_hooks::query_version)
        .decode_version(&decode_cublas_version)
        .encode_version(&encode_cublas_version)
        .version_has_patch()
        .older_minor_effect("return CUBLAS_STATUS_NOT_SUPPORTED")
        .override_variable("CUSHIM_CUBLAS_PATH")
        .in_toolkit()
        .pip_packages(cublas_pip_packages)
        .effect("cublas* calls return CUBLAS_STATUS_NOT_INITIALIZED; version queries set 0")
        .unavailable_text("cushim: cuBLAS is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded cuBLAS lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("CUBLAS_STATUS_NOT_SUPPORTED")
        .blocked_returns("CUBLAS_STATUS_NOT_INITIALIZED")
        .zeroed_outputs(cublas_zeroed_outputs)
        .after_version(&cublas_hooks::check_cublaslt_release);

}  // namespace
}  // namespace detail
}  // namespace cushim

// cuBLAS's table lines (stubs.hpp): the group column is unused; `define` is
// CUSHIM_DEFINE_STUB or CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_cublas(define, group, ret, name, params, args) \
  define(cublas, CUBLASWINAPI, ret, name, params, args, group)
#define CUSHIM_HEADERS_cublas "cuBLAS headers of CUDA " CUSHIM_STRINGIFY(CUDART_VERSION)
