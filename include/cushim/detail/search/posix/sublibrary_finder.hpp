// Linux: where cuDNN's own dlopen of a sub-library by soname would land (the main library's
// RPATH/RUNPATH, LD_LIBRARY_PATH, ld.so.cache, the system folders), and each copy's version.
#pragma once

#include <cstdint>
#include <cstdlib>
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
      : main_path_(main_path), own_(std::move(resolver)), resolver_(&own_) {
    main_version_ = release_of(main_path);
  }

  // With another process's resolver, borrowed (the doctor's discovery, for every framework it
  // looks at): what it has read of each file is kept there for the next one.
  sublibrary_finder(const std::string& main_path, const dependency_resolver* shared)
      : main_path_(main_path), own_(std::string_view(), {}), resolver_(shared) {
    main_version_ = release_of(main_path);
  }

  sublibrary_finder(const sublibrary_finder&) = delete;
  sublibrary_finder& operator=(const sublibrary_finder&) = delete;

  // The copy cuDNN's own load of `file_name` would get, or empty. `searched` says where it looked
  // for `file_name`; `skipped` receives the files it met and passed over first, for any name.
  // The main library's RPATH and RUNPATH count: cuDNN's dlopen runs inside it.
  std::string by_name(const std::string& file_name, std::vector<searched_place>& searched,
                      std::vector<searched_place>* skipped = nullptr) const {
    std::vector<searched_place> other;
    for (const std::string& name : names_tried(file_name)) {
      // Only the name asked for needs its absent folders listed (`searched`, for a message).
      std::vector<searched_place>& looked = name == file_name ? searched : other;
      looked.clear();
      std::string found = resolver_->locate(name, main_path_, looked, load_kind::by_name, name == file_name);
      if (skipped) {
        for (const searched_place& entry : looked) {
          if (names_unusable_file(entry))
            skipped->push_back(searched_place(entry));  // a copy, moved in: the resolver's push_back
        }
      }
      if (!found.empty()) return found;
      if (!blocking_file(looked).empty()) return {};  // the load of this name never returns: no next name
    }
    return {};
  }

  bool loadable(const std::string& path, std::string& why_not) const { return resolver_->loadable(path, why_not); }

  // The version in the real file's name, else the exported version word, read from the file:
  // nothing is run.
  long version_of(const std::string& path, const sublibrary_spec& spec) const {
    if (long v = cudnn_version_from_file_name(final_link_target(path))) return v;
    if (!root_word_path_.empty() && path == root_word_path_) return root_word_;  // read for release_of
    return version_word(path, spec.version_symbol);
  }

  // The names cuDNN's own load tries, in order: cuDNN 9 tries libcudnn_X.so.9.M.P, .so.9.M, .so.9
  // and then libcudnn_X.so, M.P being its own release (release_of; unknown, only the last two).
  // cuDNN 8, and any other library, the one name.
  std::vector<std::string> names_tried(const std::string& file_name) const {
    const std::size_t so = file_name.rfind(".so.");
    if (file_name.compare(0, 9, "libcudnn_") != 0 || so == std::string::npos ||
        file_name.compare(so + 4, std::string::npos, "8") == 0) {
      return {file_name};
    }
    const std::string stem = file_name.substr(0, so + 3);  // libcudnn_ops.so
    if (main_version_ < 90000) return {file_name, stem};
    version_parts v = decode_cudnn_version(main_version_);
    std::vector<std::string> names(4);  // made in place: a braced list would copy each name
    names[1] = file_name + "." + std::to_string(v.minor);
    names[0] = names[1] + "." + std::to_string(v.patch);
    names[2] = file_name;
    names[3] = stem;
    return names;
  }

  // What the loader would not find for `path`. dlopen searches the same places whichever way the
  // file itself was found, so how it is loaded does not matter here.
  std::vector<missing_dependency> missing(const std::string& path, load_kind kind) const {
    return resolver_->missing(path, kind);
  }

  // Files to load before `path`: none on Linux, where a dependency is found the same way however
  // the library that needs it was loaded.
  std::vector<std::string> preloads_for(const std::string&) const { return {}; }

 private:
  // cuDNN's release, which its own loads put in the names they try first: from the main library's
  // real file name, else from the version word of its root sub-library beside it (libcudnn.so.9 of
  // NVIDIA's archives and of the pip wheel carries no version in its name; cuDNN still tries
  // libcudnn_graph.so.9.19.0 first). 0 when neither says.
  long release_of(const std::string& main_path) {
    if (long v = cudnn_version_from_file_name(final_link_target(main_path))) return v;
    const std::string main_name = main_path.substr(main_path.find_last_of('/') + 1);
    const std::size_t so = main_name.rfind(".so.");
    const int major = so == std::string::npos ? 0 : std::atoi(main_name.c_str() + so + 4);
    if (major < 9) return 0;
    const sublibrary_spec root = cudnn_sublibrary_specs(major).front();
    root_word_path_ = join_path(parent_dir(main_path), sublibrary_file_name(root.name, major));
    return root_word_ = version_word(root_word_path_, root.version_symbol);
  }

  // The 0x00MMmmpp word a cuDNN 9 sub-library exports as `symbol`, read from the file; 0 without one.
  static long version_word(const std::string& path, const char* symbol) {
    std::uint32_t packed = 0;
    file_source file(path);
    if (!symbol || !read_elf_symbol_bytes(file, symbol, &packed, sizeof packed)) return 0;
    return encode_cudnn_version(int(packed >> 16 & 0xff), int(packed >> 8 & 0xff), int(packed & 0xff));
  }

  std::string main_path_;
  long main_version_ = 0;       // release_of(main_path_)
  std::string root_word_path_;  // the root sub-library whose version word release_of read,
  long root_word_ = 0;          // and that word, which version_of gives again without reading it
  dependency_resolver own_;
  const dependency_resolver* resolver_;  // own_, or a borrowed one
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
