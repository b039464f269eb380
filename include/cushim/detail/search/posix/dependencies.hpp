// How the Linux loader would resolve a library's DT_NEEDED names, worked out from the files
// alone: names the dependency it cannot find, the chain of files that needs it and the folders
// searched. dlopen searches the same places whichever way the library itself was found, so the
// load_kind does not matter here.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../files/elf.hpp"
#include "../../files/words/elf.hpp"
#include "../missing_dependency.hpp"
#include "../path_list.hpp"
#include "../../platform/platform.hpp"
#include "binary_check.hpp"
#include "ld_so_cache.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The folders glibc's loader searches after LD_LIBRARY_PATH and the cache, under `root`.
inline std::vector<std::string> library_dirs_under(const std::string& root) {
#if defined(__x86_64__)
  const char* triplet = "x86_64-linux-gnu";
#elif defined(__aarch64__)
  const char* triplet = "aarch64-linux-gnu";
#else
  const char* triplet = nullptr;
#endif
  std::vector<std::string> dirs;
  if (triplet) {
    dirs.push_back(root + "/lib/" + triplet);
    dirs.push_back(root + "/usr/lib/" + triplet);
  }
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) dirs.push_back(root + d);
  return dirs;
}

// Those of this system (under the system root); made once (never destroyed: a search may run at exit).
inline const std::vector<std::string>& system_library_dirs() {
  static const std::vector<std::string>* dirs = new std::vector<std::string>(library_dirs_under(system_root()));
  return *dirs;
}

// What a probe child's search reads once made (child_probe.hpp): the cache and the system folders.
inline void make_statics_for_child() {
  system_ld_so_cache();
  system_library_dirs();
}

// $ORIGIN (or ${ORIGIN}) is the folder of the file that carries the RUNPATH/RPATH.
inline std::string expand_origin(std::string entry, const std::string& origin) {
  for (const char* token : {"${ORIGIN}", "$ORIGIN"}) {
    for (std::size_t at = entry.find(token); at != std::string::npos; at = entry.find(token, at + origin.size())) {
      entry.replace(at, std::strlen(token), origin);
    }
  }
  return entry;
}

class dependency_resolver {
 public:
  // The system's view: /etc/ld.so.cache and the absolute entries of LD_LIBRARY_PATH.
  dependency_resolver() : cache_(system_ld_so_cache()), root_(system_root()), system_dirs_(system_library_dirs()) {
    if (const char* value = get_environment("LD_LIBRARY_PATH")) {
      for (const path_entry& e : split_path_list(value)) {
        if (e.kind == entry_kind::absolute) library_path_.push_back(e.text);
      }
    }
  }

  // A chosen view, for tests: the bytes of a cache file and the LD_LIBRARY_PATH folders.
  dependency_resolver(std::string_view cache_bytes, std::vector<std::string> library_path)
      : cache_(cache_bytes),
        root_(system_root()),
        system_dirs_(system_library_dirs()),
        library_path_(std::move(library_path)) {}

  // Another process than this one (a framework's Python process, worked out by the doctor's
  // discovery): its cache bytes, its LD_LIBRARY_PATH and the libraries it has loaded, none of
  // this process's; `root` stands for "/" in its cache's paths and its system folders.
  dependency_resolver(std::string_view cache_bytes, std::vector<std::string> library_path,
                      std::vector<loaded_object> loaded, const std::string& root)
      : cache_(cache_bytes),
        root_(root),
        system_dirs_(library_dirs_under(root)),
        library_path_(std::move(library_path)) {
    list_loaded(std::move(loaded));
  }

  // That other process has loaded `objects` now: later answers find them there. Answers about
  // files stay; the dependency walks, which depend on what is loaded, are made again.
  void assume_loaded(std::vector<loaded_object> objects) {
    list_loaded(std::move(objects));
    closure_.clear();
  }

  // The file the loader would use for `name` when the library at `requester_path` needs it (its
  // RPATH and RUNPATH count), or empty. `searched` receives each place looked at, with why a file
  // there was skipped; without `note_absent`, only the files met there (the folders where there is
  // none cost a string each, which a caller that asks about many names may not need).
  std::string locate(const std::string& name, const std::string& requester_path, std::vector<searched_place>& searched,
                     load_kind = load_kind::by_path, bool note_absent = true) const {
    auto known = dirs_.find(requester_path);
    if (known == dirs_.end()) {
      known = dirs_.emplace(requester_path, search_dirs_of(elf_of(requester_path).info, requester_path)).first;
    }
    return locate_in(name, known->second, searched, note_absent);
  }

  // Whether the loader would take the file for this process (an ELF library of its class and
  // machine); `why_not` says why not. Each file is read once per resolver.
  bool loadable(const std::string& path, std::string& why_not) const {
    return inspect(path, why_not) == outcome::loaded;
  }

  // inspect_file's answer, read once per file.
  outcome inspect(const std::string& path, std::string& why_not) const {
    const read_file& file = elf_of(path);
    return inspect_elf(file.open_error, file.info, file.size, why_not);
  }

  // DT_NEEDED of `path`; `error` says why there are none when the file cannot be read.
  std::vector<std::string> needs(const std::string& path, std::string& error) const {
    const read_file& file = elf_of(path);
    if (!file.open_error.empty()) return error = file.open_error, std::vector<std::string>();
    if (file.info.error != elf_error::none) return error = words::describe(file.info.fault), std::vector<std::string>();
    return file.info.needed;
  }

  // Every DT_NEEDED of `path` and of what they need in turn that the loader would not find.
  // Results are kept per file, so checking seven sub-libraries walks their shared dependencies
  // once; libraries already in the process are not descended into.
  std::vector<missing_dependency> missing(const std::string& path, load_kind = load_kind::by_path,
                                          std::vector<std::string>* = nullptr) const {
    file_identity id = identity_of(path);
    std::pair<std::uint64_t, std::uint64_t> key{id.device, id.inode};
    auto known = closure_.find(key);
    if (id.known() && known != closure_.end()) return known->second;
    if (id.known()) closure_.emplace(key, std::vector<missing_dependency>());  // a cycle back to this file adds nothing
    if (closure_.size() > max_files) return {};
    std::vector<missing_dependency> result;
    const elf_info& info = elf_of(path).info;
    if (info.error == elf_error::none) {
      for (const std::string& name : info.needed) {
        std::vector<searched_place> searched;
        std::string found = locate(name, info, path, searched);
        if (found.empty()) {
          result.push_back({{path}, name, std::move(searched), {}, {}});
        } else if (!is_loaded(found)) {
          append_through(result, path, missing(found));
        }
      }
    }
    if (id.known()) closure_[key] = std::vector<missing_dependency>(result);  // moved in: no element-wise assignment
    return result;
  }

  // A FIFO the system loader would meet, and then wait on forever, while it loads `path`: where it
  // looks for a file of the DT_NEEDED closure, or for `by_name`, which a constructor loads by name
  // (NVIDIA's libraries load the driver as they start). Empty when there is none; `name` receives
  // the file name it looked for there.
  std::string blocker_of_load(const std::string& path, const std::string& by_name, std::string& name) const {
    std::vector<std::string> pending{path}, seen;
    for (std::size_t next = 0; next < pending.size() && next < max_files; ++next) {
      platform::file_source file(pending[next]);
      elf_info info = read_elf(file);
      if (info.error != elf_error::none) continue;
      std::vector<std::string> names = info.needed;
      if (next == 0) names.push_back(by_name);
      for (const std::string& needed : names) {
        std::vector<searched_place> searched;
        std::string found = locate(needed, info, pending[next], searched);
        std::string fifo = blocking_file(searched);
        if (!fifo.empty()) return name = needed, fifo;
        if (found.empty() || is_loaded(found) || std::find(seen.begin(), seen.end(), found) != seen.end()) continue;
        seen.push_back(found);
        pending.push_back(found);
      }
    }
    return {};
  }

 private:
  static constexpr std::size_t max_files = 256;  // a dependency closure larger than this is not real

  // A file as read once per resolver: why it could not be opened, or what its ELF says.
  struct read_file {
    std::string open_error;
    elf_info info;
    std::uint64_t size = 0;  // bytes
  };

  const read_file& elf_of(const std::string& path) const {
    auto known = files_.find(path);
    if (known != files_.end()) return known->second;
    platform::file_source file(path);
    read_file read;
    if (file.ok()) {
      read.info = read_elf(file);
      read.size = file.size();
    } else {
      read.open_error = file.error();
    }
    return files_.emplace(path, std::move(read)).first->second;
  }

  std::string locate(const std::string& name, const elf_info& requester, const std::string& requester_path,
                     std::vector<searched_place>& searched) const {
    auto known = dirs_.find(requester_path);
    if (known == dirs_.end()) known = dirs_.emplace(requester_path, search_dirs_of(requester, requester_path)).first;
    return locate_in(name, known->second, searched, true);
  }

  // `dirs`: search_dirs_of the library that needs `name`.
  std::string locate_in(const std::string& name, const std::vector<std::string>& dirs,
                        std::vector<searched_place>& searched, bool note_absent) const {
    if (name.find('/') != std::string::npos) return check_file(name).state == file_state::regular ? name : "";
    std::string loaded = loaded_copy(name);
    if (!loaded.empty()) return loaded;
    bool ended = false;
    std::string found = first_loadable(dirs, name, searched, ended, note_absent);
    if (!found.empty() || ended) return found;
    std::vector<std::string> cached = ld_so_cache_paths(cache_, name);
    for (std::string& path : cached) {
      path.insert(0, root_);
      verdict v = accept(path, true, searched, note_absent);
      if (v == verdict::taken) return path;
      if (v == verdict::ends_search || v == verdict::blocks) return {};
    }
    if (cached.empty() && note_absent) searched.push_back({searched_place::finding::no_cache_entry, {}, {}, true});
    return first_loadable(system_dirs_, name, searched, ended, note_absent);
  }

  // RPATH (without RUNPATH), LD_LIBRARY_PATH, RUNPATH: the folders searched before the cache for a
  // file the library at `requester_path` needs (kept per requester in dirs_).
  std::vector<std::string> search_dirs_of(const elf_info& requester, const std::string& requester_path) const {
    std::string origin = parent_dir(requester_path);
    std::vector<std::string> dirs;
    if (requester.runpath.empty()) {
      for (const std::string& d : requester.rpath) dirs.push_back(expand_origin(d, origin));
    }
    dirs.insert(dirs.end(), library_path_.begin(), library_path_.end());
    for (const std::string& d : requester.runpath) dirs.push_back(expand_origin(d, origin));
    return dirs;
  }

  // The first file the loader takes from `dirs`; `ended` is set when a file there ends the search.
  std::string first_loadable(const std::vector<std::string>& dirs, const std::string& name,
                             std::vector<searched_place>& searched, bool& ended, bool note_absent = true) const {
    std::string path;  // one buffer for every folder's candidate
    for (const std::string& dir : dirs) {
      if (!note_absent && nothing_at(dir, name)) continue;  // accept's first answer, without a string
      join_path_into(path, dir, name);
      verdict v = accept(path, false, searched, note_absent);
      if (v == verdict::taken) return path;
      if (v == verdict::ends_search || v == verdict::blocks) return ended = true, std::string();
    }
    return {};
  }

  enum class verdict { taken, absent, passed_over, ends_search, blocks };

  // Whether stat of dir/name fails with ENOENT (accept's verdict::absent), the path joined on the
  // stack: most folders of a search hold no such file. False when it does not fit there.
  static bool nothing_at(const std::string& dir, const std::string& name) {
    char path[512];
    struct stat present;
    return join_path_to(path, sizeof path, dir, name) && ::stat(path, &present) != 0 && errno == ENOENT;
  }

  // glibc's open_verify: a library of another class or machine is passed over; any other file it
  // cannot load ("invalid ELF header", "file too short") fails the load of that name; a FIFO it
  // opens and waits on (finding::blocks_search). `from_cache`: the cache named the file.
  verdict accept(const std::string& path, bool from_cache, std::vector<searched_place>& searched,
                 bool note_absent = true) const {
    struct stat present;
    if (::stat(path.c_str(), &present) != 0 && errno == ENOENT) {  // most places hold no such file
      if (note_absent) searched.push_back({searched_place::finding::absent, parent_dir(path), {}, from_cache});
      return verdict::absent;
    }
    file_check at = check_file(path, true);
    if (at.blocks_open) {
      searched.push_back({searched_place::finding::blocks_search, path, {}, from_cache});
      return verdict::blocks;
    }
    if (at.state != file_state::regular) {
      if (note_absent) searched.push_back({searched_place::finding::absent, parent_dir(path), {}, from_cache});
      return verdict::absent;
    }
    std::string why_not;
    outcome result = inspect(path, why_not);
    if (result == outcome::loaded) return verdict::taken;
    bool ends = result != outcome::wrong_architecture;
    searched.push_back({ends ? searched_place::finding::ends_search : searched_place::finding::passed_over, path,
                        std::move(why_not), from_cache});
    return ends ? verdict::ends_search : verdict::passed_over;
  }

  // A library already in the process under this file name or soname (loaded_copy_path's answer),
  // from one list of the process's libraries taken when the resolver first asks.
  std::string loaded_copy(const std::string& name) const {
    const std::vector<loaded_object>& objects = loaded();
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const std::string& path = objects[i].path;
      const bool same_file_name = path.size() - loaded_name_at_[i] == name.size() &&
                                  path.compare(loaded_name_at_[i], std::string::npos, name) == 0;
      if (same_file_name || objects[i].soname == name) return path;
    }
    return {};
  }

  bool is_loaded(const std::string& path) const {
    for (const loaded_object& o : loaded()) {
      if (o.path == path) return true;
    }
    return false;
  }

  const std::vector<loaded_object>& loaded() const {
    if (!loaded_listed_) list_loaded(loaded_objects());
    return loaded_;
  }

  void list_loaded(std::vector<loaded_object> objects) const {
    loaded_ = std::move(objects);
    loaded_listed_ = true;
    loaded_name_at_.clear();
    for (const loaded_object& o : loaded_) loaded_name_at_.push_back(last_separator(o.path) + 1);
  }

  std::string_view cache_;  // the system's, mapped for the life of the process, or the caller's
  std::string root_;        // stands for "/" in the cache's paths
  std::vector<std::string> system_dirs_;
  std::vector<std::string> library_path_;
  mutable std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<missing_dependency>> closure_;
  mutable std::vector<loaded_object> loaded_;
  mutable std::vector<std::size_t> loaded_name_at_;  // where the file name of each starts in its path
  mutable bool loaded_listed_ = false;
  mutable std::map<std::string, std::vector<std::string>> dirs_;  // search_dirs_of, per requester
  mutable std::map<std::string, read_file> files_;                // each file's ELF, read once
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
