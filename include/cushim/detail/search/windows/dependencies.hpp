// How Windows would resolve a DLL's imports, worked out from the files alone: names the DLL it
// cannot find (error 126) or the functions a found DLL does not export (error 127), the chain of
// DLLs that needs it and the folders searched.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../missing_dependency.hpp"
#include "../path_list.hpp"
#include "../../files/pe.hpp"
#include "../../files/words/pe.hpp"
#include "../../platform/platform.hpp"
#include "binary_check.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// A probe child on Windows is a program of its own (child_process.hpp): it makes its own statics.
inline void make_statics_for_child() {}

// API sets (api-ms-win-*, ext-ms-*) are resolved by the system from its schema, never from a file.
inline bool is_api_set(const std::string& name) {
  auto starts = [&](const char* prefix) {
    std::size_t n = std::strlen(prefix);
    return name.size() >= n && pe_format::same_name_ignoring_case(name.substr(0, n), prefix);
  };
  return starts("api-ms-win-") || starts("ext-ms-");
}

// Where Windows looks for the imports of a DLL, by how it was loaded:
// - load_kind::by_path: by absolute path with LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
//   LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, as cushim loads: the DLL's folder, the application's
//   folder, System32;
// - load_kind::by_name: by bare name with plain LoadLibrary, as cuDNN loads its sub-libraries:
//   the application's folder, System32, the Windows folder, the current folder, PATH. The
//   current folder is left out here: cushim never counts on it (anyone can plant a file there).
// Another process than this one (a framework's Python process, worked out by the doctor's
// discovery): its executable's folder, the folders it added with AddDllDirectory
// (os.add_dll_directory), which only LOAD_LIBRARY_SEARCH_DEFAULT_DIRS loads see, its PATH, and the
// DLLs it has loaded, none of this process's.
struct process_view {
  std::string app_dir;
  std::vector<std::string> user_dirs;
  std::vector<std::string> path_dirs;
  std::vector<std::string> loaded;  // full paths
};

class dependency_resolver {
 public:
  dependency_resolver()
      : app_dir_(parent_dir(executable_path())), system_dir_(system_folder()), windows_dir_(windows_folder()) {
    if (const char* path = get_environment("PATH")) {
      for (const path_entry& e : split_path_list(path)) {
        if (e.kind == entry_kind::absolute) path_dirs_.push_back(e.text);
      }
    }
  }

  explicit dependency_resolver(process_view view)
      : app_dir_(std::move(view.app_dir)),
        system_dir_(system_folder()),
        windows_dir_(windows_folder()),
        path_dirs_(std::move(view.path_dirs)),
        user_dirs_(std::move(view.user_dirs)),
        simulated_(true),
        loaded_(std::move(view.loaded)) {}

  // That other process has loaded `paths` now: later answers find them there.
  void assume_loaded(std::vector<std::string> paths) { loaded_ = std::move(paths); }

  // The file Windows would use for `name` when loading `requester_path` (by_path) or a bare
  // name (by_name), or empty. API sets and DLLs already in the process count as present.
  std::string locate(const std::string& name, const std::string& requester_path, std::vector<searched_place>& searched,
                     load_kind kind = load_kind::by_path) const {
    if (is_api_set(name)) return name;
    std::string loaded = loaded_path(name);
    if (!loaded.empty()) return loaded;
    std::vector<std::string> dirs;
    if (kind == load_kind::by_path) {
      dirs = {parent_dir(requester_path), app_dir_};
      dirs.insert(dirs.end(), user_dirs_.begin(), user_dirs_.end());
      dirs.push_back(system_dir_);
    } else {
      dirs = {app_dir_, system_dir_, windows_dir_};
      dirs.insert(dirs.end(), path_dirs_.begin(), path_dirs_.end());
    }
    std::string found = first_usable(dirs, name, searched);
    if (found.empty() && kind == load_kind::by_path) note_copy_on_path(name, searched);
    return found;
  }

  // The import table of `path`; `error` says why there is none when the file cannot be read.
  std::vector<std::string> needs(const std::string& path, std::string& error) const {
    file_source file(path);
    if (!file.ok()) return error = file.error(), std::vector<std::string>();
    pe_info info = read_pe(file);
    if (info.error != pe_error::none) return error = words::describe(info.fault), std::vector<std::string>();
    return info.imports;
  }

  // Every import of `path`, and of what it imports in turn, that Windows would not find, or
  // whose DLL lacks a function imported from it; delay-loaded DLLs are named too (they fail at
  // their first call, not at load time). With `path_preloads`, an import found only on PATH
  // counts as found and its copy is added there, after its own dependencies: loading that list
  // first by absolute path puts each one in the process before `path` needs it.
  std::vector<missing_dependency> missing(const std::string& path, load_kind kind = load_kind::by_path,
                                          std::vector<std::string>* path_preloads = nullptr) const {
    std::vector<missing_dependency> result;
    std::vector<std::string> visited;
    walk({path}, path, kind, path_preloads, visited, result);
    return result;
  }

  // Windows' loader meets no FIFO where it looks (posix/dependencies.hpp): none ever blocks a load.
  std::string blocker_of_load(const std::string&, const std::string&, std::string&) const { return {}; }

 private:
  static constexpr std::size_t max_files = 256;

  // `chain` ends with the DLL whose imports are walked now; `top` decides the by_path folders.
  void walk(const std::vector<std::string>& chain, const std::string& top, load_kind kind,
            std::vector<std::string>* preloads, std::vector<std::string>& visited,
            std::vector<missing_dependency>& result) const {
    const std::string& current = chain.back();
    std::string canonical = canonical_path(current);
    if (visited.size() >= max_files || std::find(visited.begin(), visited.end(), canonical) != visited.end()) return;
    visited.push_back(canonical);
    file_source file(current);
    pe_info info = read_pe(file);
    if (info.error != pe_error::none) return;
    for (const std::string& name : info.imports) {
      std::vector<searched_place> searched;
      std::string found = locate(name, top, searched, kind);
      std::vector<std::string> through = chain;
      if (found.empty() && preloads) {
        found = first_usable(path_dirs_, name, searched);
        if (!found.empty()) {
          through.push_back(found);
          walk(through, found, load_kind::by_path, preloads, visited, result);  // it is loaded by its own path
          if (std::find(preloads->begin(), preloads->end(), found) == preloads->end()) preloads->push_back(found);
          check_exports(file, chain, name, found, result);
          continue;
        }
      }
      if (found.empty()) {
        result.push_back({chain, name, std::move(searched), {}, {}});
        continue;
      }
      if (is_api_set(name) || parent_dir(found) == system_dir_) continue;  // the system's own DLLs fit
      check_exports(file, chain, name, found, result);
      through.push_back(found);
      if (loaded_path(name).empty()) walk(through, top, kind, preloads, visited, result);
    }
    for (const std::string& name : info.delay_imports) {
      std::vector<searched_place> searched;
      if (locate(name, top, searched, kind).empty())
        result.push_back({chain, name + " (delay-loaded)", searched, {}, {}});
    }
  }

  // Error 127: the functions chain.back() takes from `name` that the file found for it lacks.
  static void check_exports(const byte_source& importer_file, const std::vector<std::string>& chain,
                            const std::string& name, const std::string& found,
                            std::vector<missing_dependency>& result) {
    file_source file(found);
    pe_info target = read_pe(file);
    if (target.error != pe_error::none) return;
    std::vector<std::string> absent;
    for (const std::string& function : pe_imported_names(importer_file, name)) {
      if (function.empty() || function[0] == '#') continue;  // by ordinal: not checked
      if (!std::binary_search(target.exports.begin(), target.exports.end(), function)) absent.push_back(function);
    }
    if (!absent.empty()) result.push_back({chain, name, {}, found, std::move(absent)});
  }

  std::string first_usable(const std::vector<std::string>& dirs, const std::string& name,
                           std::vector<searched_place>& searched) const {
    for (const std::string& dir : dirs) {
      if (dir.empty() || listed(searched, dir)) continue;  // PATH often repeats System32
      std::string path = join_path(dir, name);
      if (check_file(path).state != file_state::regular) {
        searched.push_back({searched_place::finding::absent, dir, {}, false});
        continue;
      }
      // As the loader: a DLL of another machine is passed over, any other file it cannot map ends
      // the search with error 193 (measured under Wine: a text file first on PATH fails the load).
      std::string why_not;
      outcome result = inspect_file(path, why_not);
      if (result == outcome::loaded) return path;
      bool ends = result != outcome::wrong_architecture;
      searched.push_back({ends ? searched_place::finding::ends_search : searched_place::finding::passed_over, path,
                          std::move(why_not), false});
      if (ends) return {};
    }
    return {};
  }

  // A DLL of this name in the process (the other process's, when simulated).
  std::string loaded_path(const std::string& name) const {
    if (!simulated_) return loaded_copy_path(name);
    for (const std::string& path : loaded_) {
      if (pe_format::same_name_ignoring_case(file_name_of(path), name)) return path;
    }
    return {};
  }

  static bool listed(const std::vector<searched_place>& searched, const std::string& dir) {
    for (const searched_place& s : searched) {
      if (s.what == searched_place::finding::absent && pe_format::same_name_ignoring_case(s.path, dir)) return true;
    }
    return false;
  }

  // A copy in a PATH folder explains why the same DLL loads elsewhere: Windows does not search
  // PATH for the imports of a DLL loaded by absolute path.
  void note_copy_on_path(const std::string& name, std::vector<searched_place>& searched) const {
    for (const std::string& dir : path_dirs_) {
      std::string candidate = join_path(dir, name);
      if (check_file(candidate).state != file_state::regular) continue;
      searched.push_back({searched_place::finding::on_path, candidate, {}, false});
      return;
    }
  }

  std::string app_dir_;
  std::string system_dir_;
  std::string windows_dir_;
  std::vector<std::string> path_dirs_;
  std::vector<std::string> user_dirs_;  // simulated: AddDllDirectory's folders
  bool simulated_ = false;
  std::vector<std::string> loaded_;  // simulated: the other process's DLLs
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
