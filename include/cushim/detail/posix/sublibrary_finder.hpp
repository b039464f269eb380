// Linux: where cuDNN's own dlopen of a sub-library by soname would land (the main library's
// RPATH/RUNPATH, LD_LIBRARY_PATH, ld.so.cache, the system folders), and each copy's version.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../sublibrary_specs.hpp"
#include "dependencies.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// "libcudnn_ops.so.9.19.0" -> 91900; 0 when the name carries no full version.
inline long cudnn_version_from_file_name(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  std::size_t at = base.find(".so.");
  return at == std::string::npos ? 0 : cudnn_version_from_text(base.c_str() + at + 4);
}

class sublibrary_finder {
 public:
  // dlopen refuses a missing dependency or symbol itself, and costs less than the walk: the walk
  // runs only to explain a refusal.
  static constexpr bool walk_before_load = false;

  explicit sublibrary_finder(const std::string& main_path) : sublibrary_finder(main_path, dependency_resolver()) {}

  // With a chosen view of the system, for tests.
  sublibrary_finder(const std::string& main_path, dependency_resolver resolver)
      : main_path_(main_path), resolver_(std::move(resolver)) {}

  // The copy cuDNN's own load of `file_name` would get, or empty; `searched` says where it looked.
  // The main library's RPATH and RUNPATH count: cuDNN's dlopen runs inside it.
  std::string by_name(const std::string& file_name, std::vector<std::string>& searched) const {
    return resolver_.locate(file_name, main_path_, searched, load_kind::by_name);
  }

  bool loadable(const std::string& path, std::string& why_not) const { return resolver_.loadable(path, why_not); }

  // The version in the real file's name, else the exported version word, read from the file:
  // nothing is run.
  long version_of(const std::string& path, const sublibrary_spec& spec) const {
    if (long v = cudnn_version_from_file_name(canonical_path(path))) return v;
    std::uint32_t packed = 0;
    file_source file(path);
    if (!spec.version_symbol || !read_elf_symbol_bytes(file, spec.version_symbol, &packed, sizeof packed)) return 0;
    return encode_cudnn_version(int(packed >> 16 & 0xff), int(packed >> 8 & 0xff), int(packed & 0xff));
  }

  // What the loader would not find for `path`. dlopen searches the same places whichever way the
  // file itself was found, so how it is loaded does not matter here.
  std::vector<missing_dependency> missing(const std::string& path, load_kind kind) const {
    return resolver_.missing(path, kind);
  }

  // Files to load before `path`: none on Linux, where a dependency is found the same way however
  // the library that needs it was loaded.
  std::vector<std::string> preloads_for(const std::string&) const { return {}; }

 private:
  std::string main_path_;
  dependency_resolver resolver_;
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
