// Windows: where cuDNN's own LoadLibrary of a sub-library by bare name would land (already
// loaded, the application's folder, System32, the Windows folder, PATH), each copy's version from
// its version resource, and what must be loaded first when cushim loads a copy by absolute path.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "../sublibrary_specs.hpp"
#include "dependencies.hpp"
#include "file_version.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

class sublibrary_finder {
 public:
  // A delay-loaded DLL that is missing fails only when first called (an exception, not an
  // error code), and Wine loads a DLL whose import lacks a function: the walk finds both before
  // anything runs.
  static constexpr bool walk_before_load = true;

  explicit sublibrary_finder(const std::string&) {}

  // The copy cuDNN's own load of `file_name` would get, or empty; `searched` says where it looked,
  // `skipped` receives the files it met and passed over first.
  std::string by_name(const std::string& file_name, std::vector<searched_place>& searched,
                      std::vector<searched_place>* skipped = nullptr) const {
    std::string found = resolver_.locate(file_name, "", searched, load_kind::by_name);
    if (skipped) {
      for (const searched_place& entry : searched) {
        if (names_unusable_file(entry))
          skipped->push_back(searched_place(entry));  // a copy, moved in: the resolver's push_back
      }
    }
    return found;
  }

  bool loadable(const std::string& path, std::string& why_not) const {
    return inspect_file(path, why_not) == outcome::loaded;
  }

  // FileVersion "9.19.0.48" -> 91900; 0 without a version resource (some cuDNN DLLs have none).
  long version_of(const std::string& path, const sublibrary_spec&) const {
    file_source file(path);
    return cudnn_version_from_text(read_pe_version(file).file_version.c_str());
  }

  // A copy cushim loads by absolute path finds its imports beside it, in the application's folder
  // and System32; one cuDNN loads by name finds them as any bare-name load does, PATH included.
  // For the first kind, imports only PATH holds are noted to be loaded first (preloads_for).
  std::vector<missing_dependency> missing(const std::string& path, load_kind kind) {
    if (kind == load_kind::by_name) return resolver_.missing(path, kind);
    return resolver_.missing(path, kind, &preloads_[path]);
  }

  // The PATH copies of `path`'s dependencies, in the order to load them.
  std::vector<std::string> preloads_for(const std::string& path) const {
    auto known = preloads_.find(path);
    return known == preloads_.end() ? std::vector<std::string>() : known->second;
  }

 private:
  dependency_resolver resolver_;
  std::map<std::string, std::vector<std::string>> preloads_;
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
