// Windows: what the framework loaders share (framework_loader.hpp and the loaders it includes):
// the process a framework's Python runs in (its application folder), the OSError a failed load
// shows, the files a loaded DLL brings in, an extension module that does not load, and cuDNN's own
// by-name loads of its sub-libraries from that process.
#pragma once

#include <string>
#include <vector>

#include "../framework_loads.hpp"
#include "../../words/windows_loads.hpp"
#include <cushim/detail/search/windows/dependencies.hpp>

namespace cushim {
namespace detail {
namespace {
namespace platform {

// Nothing is shared between the frameworks' loads: each has its own process's folders.
struct loader_state {
  loader_state(const discovery::context&, std::string_view) {}
};

struct loader_input {
  const discovery::context& ctx;
  const machine::environment& env;
  const discovery::site_index& site;
  const discovery::wheel_files& wheels;
  loader_state& state;
};

// The folder of the python.exe that runs: a venv's Scripts\python.exe starts its base
// interpreter (pyvenv.cfg "home"), whose folder is the application's folder.
inline std::string application_folder(const machine::environment& env) {
  discovery::text_file cfg = discovery::read_text(join_path(env.path, "pyvenv.cfg"));
  std::string home = cfg.ok() ? discovery::config_value(cfg.text, "home") : std::string();
  if (!home.empty()) return home;
  return env.python.empty() ? env.path : parent_dir(env.python);
}

// The Windows error a failed walk stands for, as Python's OSError prints it.
inline std::string win_error(const missing_dependency& m) {
  if (!m.absent_functions.empty()) return discovery::words::win_error_127();
  for (const searched_place& s : m.searched) {
    if (s.what == searched_place::finding::ends_search) return discovery::words::win_error_193();
  }
  return discovery::words::win_error_126();
}

// The files a loaded DLL brings into the process: the DLL and what its imports reach.
inline void add_closure(const dependency_resolver& resolver, const std::string& dll, load_kind kind,
                        std::vector<std::string>& loaded) {
  discovery::import_walk walk = discovery::walk_imports(resolver, dll, kind);
  discovery::add_unique(loaded, dll);
  for (const auto& f : walk.found) {
    if (walk_into(f.second)) discovery::add_unique(loaded, f.second);
  }
}

// A file the framework loads by name at `path`: one of its loads, and in its process with its closure.
inline void add_by_name_load(const loader_input& in, dependency_resolver& resolver, const std::string& name,
                             const std::string& path, std::vector<std::string>& loaded, machine::framework& fw) {
  fw.loads.push_back(discovery::describe_load(name, path, in.wheels));
  add_closure(resolver, path, load_kind::by_name, loaded);
  resolver.assume_loaded(loaded);
}

// cuDNN's by-name loads from the framework's process; `user_dirs` are noted where a file is in
// one of them, which a by-name load does not search.
inline void check_cudnn(const loader_input& in, const dependency_resolver& resolver,
                        const std::vector<std::string>& user_dirs, const std::string& extra_fix,
                        discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::string cudnn_path;
  int major = 0;
  for (const machine::library_load& l : fw.loads) {
    if (int m = cudnn_major_of_main(l.name)) major = m, cudnn_path = l.path;
  }
  if (major < 8 || cudnn_path.empty()) return;
  std::string context_text = user_dirs.empty() ? discovery::words::from_process(fw.name)
                                               : discovery::words::add_dll_directory_context(fw.name, user_dirs);
  discovery::check_cudnn_by_name(
      discovery::describe_load(file_name_of(cudnn_path), cudnn_path, in.wheels), major, in.wheels,
      [&](const std::string& file, std::vector<std::string>& searched) {
        std::string path = discovery::locate_and_say(resolver, file, "", searched, load_kind::by_name);
        if (!path.empty()) return path;
        for (const std::string& dir : user_dirs) {
          std::string there = join_path(dir, file);
          if (check_file(there).state == file_state::regular) {
            searched.push_back(discovery::words::in_added_folder(there));
          }
        }
        return path;
      },
      context_text, fw);
  for (machine::problem& p : fw.problems) {
    if (p.name == "cudnn_sublibrary_not_found") p.fix += extra_fix;
  }
}

// An extension module (or the DLL it is) that Python cannot load: import_fails, with the first
// import Windows would not find.
inline void extension_fails(const dependency_resolver& resolver, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::vector<missing_dependency> missing = resolver.missing(fw.native_file, load_kind::by_path);
  if (missing.empty()) return;
  fw.problems.push_back(discovery::words::extension_fails(fw, missing.front(), win_error(missing.front())));
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
