// How Windows would resolve a DLL's imports when cushim loads it by absolute path
// (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS), worked out from the files
// alone: names the DLL it cannot find, the DLL that needs it and the folders searched.
#pragma once

#include <string>
#include <vector>

#include "elf_dependencies.hpp"
#include "path_list.hpp"
#include "pe.hpp"
#include "platform.hpp"

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

// API sets (api-ms-win-*, ext-ms-*) are resolved by the system from its schema, never from a file.
inline bool is_api_set(const std::string& name) {
  auto starts = [&](const char* prefix) {
    std::size_t n = std::strlen(prefix);
    return name.size() >= n && pe_format::same_name_ignoring_case(name.substr(0, n), prefix);
  };
  return starts("api-ms-win-") || starts("ext-ms-");
}

class pe_dependency_resolver {
 public:
  pe_dependency_resolver()
      : app_dir_(parent_dir(platform::executable_path())), system_dir_(platform::system_folder()) {}

  // The file Windows would use for `name` when loading `top` (the DLL cushim loads), or empty.
  // API sets and DLLs already in the process count as present (KnownDLLs are in System32).
  std::string locate(const std::string& name, const std::string& top, std::vector<std::string>& searched) const {
    if (is_api_set(name)) return name;
    std::string loaded = platform::loaded_copy_path(name);
    if (!loaded.empty()) return loaded;
    for (const std::string& dir : {parent_dir(top), app_dir_, system_dir_}) {
      if (dir.empty()) continue;
      std::string path = join_path(dir, name);
      if (platform::check_file(path).state != platform::file_state::regular) {
        searched.push_back(dir);
        continue;
      }
      std::string why_not;
      if (inspect_pe_file(path, why_not) == outcome::loaded) return path;
      searched.push_back(path + " (skipped: " + why_not + ")");
    }
    note_copy_on_path(name, searched);
    return {};
  }

  // Every import of `path`, and of what it imports in turn, that Windows would not find;
  // delay-loaded ones are named too (they fail at their first call, not at load time).
  std::vector<missing_dependency> missing(const std::string& path) const {
    std::vector<missing_dependency> result;
    std::vector<std::string> visited, queue{path};
    while (!queue.empty() && visited.size() < max_files) {
      std::string current = queue.back();
      queue.pop_back();
      std::string canonical = platform::canonical_path(current);
      bool seen = false;
      for (const std::string& v : visited) seen = seen || v == canonical;
      if (seen) continue;
      visited.push_back(canonical);
      platform::file_source file(current);
      pe_info info = read_pe(file);
      if (info.error != pe_error::none) continue;
      for (const std::string& name : info.imports) check(name, path, current, "", result, &queue);
      for (const std::string& name : info.delay_imports) check(name, path, current, " (delay-loaded)", result, nullptr);
    }
    return result;
  }

 private:
  static constexpr std::size_t max_files = 256;

  void check(const std::string& name, const std::string& top, const std::string& current, const char* note,
             std::vector<missing_dependency>& result, std::vector<std::string>* queue) const {
    std::vector<std::string> searched;
    std::string found = locate(name, top, searched);
    if (found.empty()) {
      result.push_back({current, name + note, std::move(searched)});
    } else if (queue && !is_api_set(name) && parent_dir(found) != system_dir_ &&
               platform::loaded_copy_path(name).empty()) {
      queue->push_back(found);  // system DLLs and DLLs already loaded have their imports in place
    }
  }

  // A copy in a PATH folder explains why the same DLL loads elsewhere: Windows does not search
  // PATH for the imports of a DLL loaded by absolute path.
  static void note_copy_on_path(const std::string& name, std::vector<std::string>& searched) {
    const char* path = platform::get_environment("PATH");
    if (!path) return;
    for (const path_entry& e : split_path_list(path)) {
      if (e.kind != entry_kind::absolute) continue;
      std::string candidate = join_path(e.text, name);
      if (platform::check_file(candidate).state != platform::file_state::regular) continue;
      searched.push_back(candidate + " (on PATH, which Windows does not search for the imports of a DLL loaded by " +
                         "full path: copy it beside the DLL)");
      return;
    }
  }

  std::string app_dir_;
  std::string system_dir_;
};

}  // namespace detail
}  // namespace cushim
