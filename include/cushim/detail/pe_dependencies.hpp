// How Windows would resolve a DLL's imports, worked out from the files alone: names the DLL it
// cannot find (error 126) or the functions a found DLL does not export (error 127), the DLL that
// needs it and the folders searched.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "elf_dependencies.hpp"
#include "path_list.hpp"
#include "pe.hpp"
#include "platform.hpp"
#include "versions.hpp"

namespace cushim {
namespace detail {

// Before the loader sees the file: a PE image of this process's machine. `loaded` means usable.
inline outcome inspect_pe_file(const std::string& path, std::string& detail) {
  platform::file_source file(path);
  pe_info info = read_pe(file);
  if (info.error != pe_error::none) {
    detail = "not a DLL: " + info.error_detail;
    return outcome::bad_format;
  }
  if (info.machine != native_pe_machine()) {
    detail = std::string("a DLL for ") + pe_machine_name(info.machine) + "; this process is " +
             pe_machine_name(native_pe_machine());
    return outcome::wrong_architecture;
  }
  return outcome::loaded;
}

// The CUDA version (CUDART_VERSION encoding) a runtime DLL's version resource gives, or 0. Both
// forms are read: "13.0.48" (major first) and "6.14.11.13000" (the encoded version last).
inline long cuda_version_from_resource(const pe_info& info) {
  for (const std::string* text : {&info.product_version, &info.file_version}) {
    long parts[4] = {0, 0, 0, 0};
    int count = leading_numbers(text->c_str(), parts, 4);
    if (count >= 2 && parts[0] >= 10 && parts[0] <= 99 && parts[1] >= 0 && parts[1] <= 99)
      return parts[0] * 1000 + parts[1] * 10;
    if (count == 4 && parts[3] >= 10000 && parts[3] <= 99999) return parts[3];
  }
  return 0;
}

// API sets (api-ms-win-*, ext-ms-*) are resolved by the system from its schema, never from a file.
inline bool is_api_set(const std::string& name) {
  auto starts = [&](const char* prefix) {
    std::size_t n = std::strlen(prefix);
    return name.size() >= n && pe_format::same_name_ignoring_case(name.substr(0, n), prefix);
  };
  return starts("api-ms-win-") || starts("ext-ms-");
}

// The two ways a DLL gets loaded, which decide where Windows looks for its imports.
enum class pe_search {
  // By absolute path with LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, as
  // cushim loads: the loaded DLL's folder, the application's folder, System32.
  beside_dll,
  // By bare name with plain LoadLibrary, as cuDNN loads its sub-libraries: the application's
  // folder, System32, the Windows folder, the current folder, PATH. The current folder is left
  // out here: cushim never counts on it (anyone can plant a file there).
  standard,
};

class pe_dependency_resolver {
 public:
  pe_dependency_resolver()
      : app_dir_(parent_dir(platform::executable_path())),
        system_dir_(platform::system_folder()),
        windows_dir_(platform::windows_folder()) {
    if (const char* path = platform::get_environment("PATH")) {
      for (const path_entry& e : split_path_list(path)) {
        if (e.kind == entry_kind::absolute) path_dirs_.push_back(e.text);
      }
    }
  }

  // The file Windows would use for `name` when loading `top` (beside_dll) or a bare name
  // (standard), or empty. API sets and DLLs already in the process count as present.
  std::string locate(const std::string& name, const std::string& top, std::vector<std::string>& searched,
                     pe_search mode = pe_search::beside_dll) const {
    if (is_api_set(name)) return name;
    std::string loaded = platform::loaded_copy_path(name);
    if (!loaded.empty()) return loaded;
    std::vector<std::string> dirs;
    if (mode == pe_search::beside_dll) {
      dirs = {parent_dir(top), app_dir_, system_dir_};
    } else {
      dirs = {app_dir_, system_dir_, windows_dir_};
      dirs.insert(dirs.end(), path_dirs_.begin(), path_dirs_.end());
    }
    std::string found = first_usable(dirs, name, searched);
    if (found.empty() && mode == pe_search::beside_dll) note_copy_on_path(name, searched);
    return found;
  }

  // Every import of `path`, and of what it imports in turn, that Windows would not find, or
  // whose DLL lacks a function imported from it; delay-loaded DLLs are named too (they fail at
  // their first call, not at load time). With `path_preloads`, an import found only on PATH
  // counts as found and its copy is added there, after its own dependencies: loading that list
  // first by absolute path puts each one in the process before `path` needs it.
  std::vector<missing_dependency> missing(const std::string& path, pe_search mode = pe_search::beside_dll,
                                          std::vector<std::string>* path_preloads = nullptr) const {
    std::vector<missing_dependency> result;
    std::vector<std::string> visited;
    walk(path, path, mode, path_preloads, visited, result);
    return result;
  }

 private:
  static constexpr std::size_t max_files = 256;

  void walk(const std::string& current, const std::string& top, pe_search mode, std::vector<std::string>* preloads,
            std::vector<std::string>& visited, std::vector<missing_dependency>& result) const {
    std::string canonical = platform::canonical_path(current);
    if (visited.size() >= max_files || std::find(visited.begin(), visited.end(), canonical) != visited.end()) return;
    visited.push_back(canonical);
    platform::file_source file(current);
    pe_info info = read_pe(file);
    if (info.error != pe_error::none) return;
    for (const std::string& name : info.imports) {
      std::vector<std::string> searched;
      std::string found = locate(name, top, searched, mode);
      if (found.empty() && preloads) {
        found = first_usable(path_dirs_, name, searched);
        if (!found.empty()) {
          walk(found, found, pe_search::beside_dll, preloads, visited, result);  // it is loaded by its own path
          if (std::find(preloads->begin(), preloads->end(), found) == preloads->end()) preloads->push_back(found);
          check_exports(file, current, name, found, result);
          continue;
        }
      }
      if (found.empty()) {
        result.push_back({current, name, std::move(searched), {}, {}});
        continue;
      }
      if (is_api_set(name) || parent_dir(found) == system_dir_) continue;  // the system's own DLLs fit
      check_exports(file, current, name, found, result);
      if (platform::loaded_copy_path(name).empty()) walk(found, top, mode, preloads, visited, result);
    }
    for (const std::string& name : info.delay_imports) {
      std::vector<std::string> searched;
      if (locate(name, top, searched, mode).empty())
        result.push_back({current, name + " (delay-loaded)", searched, {}, {}});
    }
  }

  // Error 127: the functions `importer` takes from `name` that the file found for it lacks.
  static void check_exports(const byte_source& importer_file, const std::string& importer, const std::string& name,
                            const std::string& found, std::vector<missing_dependency>& result) {
    platform::file_source file(found);
    pe_info target = read_pe(file);
    if (target.error != pe_error::none) return;
    std::vector<std::string> absent;
    for (const std::string& function : pe_imported_names(importer_file, name)) {
      if (function.empty() || function[0] == '#') continue;  // by ordinal: not checked
      if (!std::binary_search(target.exports.begin(), target.exports.end(), function)) absent.push_back(function);
    }
    if (!absent.empty()) result.push_back({importer, name, {}, found, std::move(absent)});
  }

  std::string first_usable(const std::vector<std::string>& dirs, const std::string& name,
                           std::vector<std::string>& searched) const {
    for (const std::string& dir : dirs) {
      if (dir.empty() || listed(searched, dir)) continue;  // PATH often repeats System32
      std::string path = join_path(dir, name);
      if (platform::check_file(path).state != platform::file_state::regular) {
        searched.push_back(dir);
        continue;
      }
      std::string why_not;
      if (inspect_pe_file(path, why_not) == outcome::loaded) return path;
      searched.push_back(path + " (skipped: " + why_not + ")");
    }
    return {};
  }

  static bool listed(const std::vector<std::string>& searched, const std::string& dir) {
    for (const std::string& s : searched) {
      if (pe_format::same_name_ignoring_case(s, dir)) return true;
    }
    return false;
  }

  // A copy in a PATH folder explains why the same DLL loads elsewhere: Windows does not search
  // PATH for the imports of a DLL loaded by absolute path.
  void note_copy_on_path(const std::string& name, std::vector<std::string>& searched) const {
    for (const std::string& dir : path_dirs_) {
      std::string candidate = join_path(dir, name);
      if (platform::check_file(candidate).state != platform::file_state::regular) continue;
      searched.push_back(candidate + " (on PATH, which Windows does not search for the imports of a DLL loaded by " +
                         "full path: copy it beside the DLL)");
      return;
    }
  }

  std::string app_dir_;
  std::string system_dir_;
  std::string windows_dir_;
  std::vector<std::string> path_dirs_;
};

}  // namespace detail
}  // namespace cushim
