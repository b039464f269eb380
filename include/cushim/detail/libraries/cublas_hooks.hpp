// What only cuBLAS does (its record, tools/libraries.json, names the hook): it imports the cuBLASLt
// of its own release, so the cuBLASLt in the process must be that one.
#pragma once

#include <string>

#include "../search/candidate_check.hpp"
#include "../search/descriptor.hpp"
#include "cublasLt.hpp"
#include "words/cublas.hpp"

namespace cushim {
namespace detail {
namespace {

namespace cublas_hooks {

// cuBLAS imports cuBLASLt by name (libcublas.so.13 needs libcublasLt.so.13), so once cuBLAS is
// loaded, the cuBLASLt in the process is the one its calls reach: one of another release, loaded
// before it from elsewhere, makes a pair NVIDIA never shipped. Refused, naming both.
inline outcome check_cublaslt_release(candidate_check& c) {
  std::string path;
  platform::library_handle h = platform::find_loaded(compiled_file_name(cublaslt_descriptor), path);
  if (!h) return outcome::loaded;
  platform::any_function f = platform::find_symbol(h, cublaslt_descriptor.version_function);
  long lt = f ? cublaslt_descriptor.query_version(f) : 0;
  platform::unload_library(h);
  if (!lt || lt == c.version) return outcome::loaded;
  c.detail += "; " + words::cublaslt_of_other_release(path, version_text(cublaslt_descriptor, lt));
  return outcome::wrong_version;
}

}  // namespace cublas_hooks

}  // namespace
}  // namespace detail
}  // namespace cushim
