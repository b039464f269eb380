// How the Linux loader would resolve a library's DT_NEEDED names, worked out from the files
// alone: names the dependency it cannot find, the file that needs it and the folders searched.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "elf.hpp"
#include "ld_so_cache.hpp"
#include "path_list.hpp"
#include "platform.hpp"
#include "search.hpp"

namespace cushim {
namespace detail {

// A dependency the system loader would not find, or (Windows) one found without every function
// imported from it.
struct missing_dependency {
  std::string needed_by;                      // the file whose DT_NEEDED / import table names it
  std::string name;                           // e.g. libcublasLt.so.13
  std::vector<std::string> searched;          // what was looked at, in the loader's order
  std::string found;                          // the file found for it, when functions are absent
  std::vector<std::string> absent_functions;  // imported from it but not exported by `found`
};

// $ORIGIN (or ${ORIGIN}) is the folder of the file that carries the RUNPATH/RPATH.
inline std::string expand_origin(std::string entry, const std::string& origin) {
  for (const char* token : {"${ORIGIN}", "$ORIGIN"}) {
    for (std::size_t at = entry.find(token); at != std::string::npos; at = entry.find(token, at + origin.size())) {
      entry.replace(at, std::strlen(token), origin);
    }
  }
  return entry;
}

// A library file the loader would accept for this process: ELF of our class and machine.
// Before the loader sees the file: an ELF shared library of this process's class and machine.
// `loaded` means usable; otherwise bad_format or wrong_architecture with the reason in detail.
inline outcome inspect_elf_file(const std::string& path, std::string& detail) {
  platform::file_source file(path);
  if (!file.ok()) {
    detail = file.error();
    return outcome::bad_format;
  }
  elf_info info = read_elf(file);
  if (info.error != elf_error::none) {
    detail = "not a shared library: " + info.error_detail;
    return outcome::bad_format;
  }
  if (info.elf_class != native_elf_class() || info.machine != native_elf_machine()) {
    detail = "a " + std::to_string(info.elf_class) + "-bit " + elf_machine_name(info.machine) +
             " library; this process is " + std::to_string(native_elf_class()) + "-bit " +
             elf_machine_name(native_elf_machine());
    return outcome::wrong_architecture;
  }
  return outcome::loaded;
}

// A library file the loader would accept for this process (the loader skips the others).
inline bool loadable_here(const std::string& path, std::string& why_not) {
  return inspect_elf_file(path, why_not) == outcome::loaded;
}

class elf_dependency_resolver {
 public:
  // The system's view: /etc/ld.so.cache and the absolute entries of LD_LIBRARY_PATH.
  elf_dependency_resolver() : cache_(system_ld_so_cache()) {
    if (const char* value = platform::get_environment("LD_LIBRARY_PATH")) {
      for (const path_entry& e : split_path_list(value)) {
        if (e.kind == entry_kind::absolute) library_path_.push_back(e.text);
      }
    }
  }

  // A chosen view, for tests: the bytes of a cache file and the LD_LIBRARY_PATH folders.
  elf_dependency_resolver(std::string cache_bytes, std::vector<std::string> library_path)
      : cache_(std::move(cache_bytes)), library_path_(std::move(library_path)) {}

  // The file the loader would use for `name` when `requester` (at `requester_path`) needs it,
  // or empty. `searched` receives each place looked at, with why a file there was skipped.
  std::string locate(const std::string& name, const elf_info& requester, const std::string& requester_path,
                     std::vector<std::string>& searched) const {
    if (name.find('/') != std::string::npos)
      return platform::check_file(name).state == platform::file_state::regular ? name : "";
    std::string loaded = loaded_copy(name);
    if (!loaded.empty()) return loaded;
    std::string origin = parent_dir(requester_path);
    std::vector<std::string> dirs;
    if (requester.runpath.empty()) {
      for (const std::string& d : requester.rpath) dirs.push_back(expand_origin(d, origin));
    }
    dirs.insert(dirs.end(), library_path_.begin(), library_path_.end());
    for (const std::string& d : requester.runpath) dirs.push_back(expand_origin(d, origin));
    std::string found = first_loadable(dirs, name, searched);
    if (!found.empty()) return found;
    std::vector<std::string> cached = ld_so_cache_paths(cache_, name);
    for (const std::string& path : cached) {
      if (accept(path, "ld.so.cache: ", searched)) return path;
    }
    if (cached.empty()) searched.push_back("ld.so.cache: no entry");
    return first_loadable(system_library_dirs(), name, searched);
  }

  // Every DT_NEEDED of `path` and of what they need in turn that the loader would not find.
  // Results are kept per file, so checking seven sub-libraries walks their shared
  // dependencies once; libraries already in the process are not descended into.
  std::vector<missing_dependency> missing(const std::string& path) const {
    std::string canonical = platform::canonical_path(path);
    auto known = closure_.find(canonical);
    if (known != closure_.end()) return known->second;
    closure_[canonical] = {};  // a cycle back to this file adds nothing
    if (closure_.size() > max_files) return {};
    std::vector<missing_dependency> result;
    platform::file_source file(path);
    elf_info info = read_elf(file);
    if (info.error == elf_error::none) {
      for (const std::string& name : info.needed) {
        std::vector<std::string> searched;
        std::string found = locate(name, info, path, searched);
        if (found.empty()) {
          result.push_back({path, name, std::move(searched), {}, {}});
        } else if (!is_loaded(found)) {
          for (missing_dependency& m : missing(found)) {
            bool listed = false;  // two paths to one broken library name it once
            for (const missing_dependency& r : result)
              listed = listed || (r.needed_by == m.needed_by && r.name == m.name);
            if (!listed) result.push_back(std::move(m));
          }
        }
      }
    }
    closure_[canonical] = result;
    return result;
  }

 private:
  static constexpr std::size_t max_files = 256;  // a dependency closure larger than this is not real

  std::string first_loadable(const std::vector<std::string>& dirs, const std::string& name,
                             std::vector<std::string>& searched) const {
    for (const std::string& dir : dirs) {
      std::string path = join_path(dir, name);
      if (accept(path, "", searched)) return path;
    }
    return {};
  }

  static bool accept(const std::string& path, const char* prefix, std::vector<std::string>& searched) {
    if (platform::check_file(path).state != platform::file_state::regular) {
      searched.push_back(prefix + parent_dir(path));
      return false;
    }
    std::string why_not;
    if (loadable_here(path, why_not)) return true;
    searched.push_back(prefix + path + " (skipped: " + why_not + ")");
    return false;
  }

  // A library already in the process under this soname, asked once per name.
  std::string loaded_copy(const std::string& name) const {
    auto known = loaded_.find(name);
    if (known != loaded_.end()) return known->second;
    return loaded_[name] = platform::loaded_copy_path(name);
  }

  bool is_loaded(const std::string& path) const {
    for (const auto& entry : loaded_) {
      if (entry.second == path) return true;
    }
    return false;
  }

  std::string cache_;
  std::vector<std::string> library_path_;
  mutable std::map<std::string, std::vector<missing_dependency>> closure_;
  mutable std::map<std::string, std::string> loaded_;
};

inline std::string describe(const missing_dependency& m) {
  if (!m.absent_functions.empty()) {
    std::size_t n = m.absent_functions.size();
    return m.needed_by + " imports " + std::to_string(n) + (n == 1 ? " function" : " functions") + " from " + m.name +
           " that " + m.found + " does not export (" + m.absent_functions.front() + (n > 1 ? ", ..." : "") +
           "): Windows refuses it with error 127, the two files come from different releases";
  }
  std::string text = m.needed_by + " needs " + m.name + ", which is not in any of: ";
  for (std::size_t i = 0; i < m.searched.size(); ++i) text += (i ? ", " : "") + m.searched[i];
  return text;
}

}  // namespace detail
}  // namespace cushim
