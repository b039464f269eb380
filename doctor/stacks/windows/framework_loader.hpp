// Windows: a framework's CUDA-bound DLL loaded as its Python process would load it, worked out
// from the files with dependencies.hpp's resolver seeing that process instead of this one.
// torch (torch/__init__.py): os.add_dll_directory of torch\lib, <prefix>\Library\bin, the base
// prefix's Library\bin and, when torch\lib has no cudart64*.dll, CUDA_PATH_V<x>_<y>\bin; then
// LoadLibraryExW(0x1100) of every torch\lib\*.dll in name order, and on error 126 PATH prefixed
// with those folders and LoadLibraryW again; the first that still fails is the OSError users see.
// Other frameworks: loaded as Python 3.8 and later loads an extension module (the DLL's folder,
// the application's folder, System32), then what their files say they load by name. Last,
// cuDNN's own loads of its sub-libraries by bare name, which see the DLLs already loaded, the
// application's folder, System32, the Windows folder and PATH, and not add_dll_directory's.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "../framework_loads.hpp"
#include <cushim/detail/windows/dependencies.hpp>

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
  if (!m.absent_functions.empty()) return "[WinError 127] The specified procedure could not be found.";
  for (const std::string& s : m.searched) {
    if (s.find(ends_search_marker) != std::string::npos) return "[WinError 193] %1 is not a valid Win32 application.";
  }
  return "[WinError 126] The specified module could not be found.";
}

// The files a loaded DLL brings into the process: the DLL and what its imports reach.
inline void add_closure(const dependency_resolver& resolver, const std::string& dll, load_kind kind,
                        std::vector<std::string>& loaded) {
  discovery::import_walk walk = discovery::walk_imports(
      resolver, dll, kind, [](const std::string&, std::vector<std::string>&) { return std::string(); });
  discovery::add_unique(loaded, dll);
  for (const auto& f : walk.found) {
    if (walk_into(f.second)) discovery::add_unique(loaded, f.second);
  }
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
  std::string context_text = user_dirs.empty()
                                 ? "from " + fw.name + "'s process,"
                                 : "LoadLibraryExW with 0x1100 (as " + fw.name +
                                       " loads) finds DLLs in the folders it added with os.add_dll_directory (" +
                                       joined(user_dirs) + "), but a load by bare name does not search them:";
  discovery::check_cudnn_by_name(
      discovery::describe_load(file_name_of(cudnn_path), cudnn_path, in.wheels), major, in.wheels,
      [&](const std::string& file, std::vector<std::string>& searched) {
        std::string path = resolver.locate(file, "", searched, load_kind::by_name);
        if (!path.empty()) return path;
        for (const std::string& dir : user_dirs) {
          std::string there = join_path(dir, file);
          if (check_file(there).state == file_state::regular) {
            searched.push_back("(" + there + " is there, in a folder added with os.add_dll_directory)");
          }
        }
        return path;
      },
      context_text, fw);
  for (machine::problem& p : fw.problems) {
    if (p.code == "cudnn_sublibrary_not_found") p.fix += extra_fix;
  }
}

inline std::vector<std::string> torch_dll_folders(const loader_input& in, const machine::framework& fw,
                                                  const std::string& torch_lib) {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& dir) {
    if (check_path(dir).kind == path_kind::folder) discovery::add_unique(dirs, dir);
  };
  add(torch_lib);
  add(join_path(join_path(in.env.path, "Library"), "bin"));
  std::string base = application_folder(in.env);
  if (base != in.env.path) add(join_path(join_path(base, "Library"), "bin"));
  bool has_cudart = false;
  std::vector<std::string> ignored;
  for (const std::string& dir : dirs)
    has_cudart = has_cudart || !discovery::names_starting(dir, "cudart64", ignored).empty();
  if (!fw.cuda.empty() && !has_cudart) {
    std::string version = fw.cuda;
    std::string variable = "CUDA_PATH_V" + version;
    std::replace(variable.begin(), variable.end(), '.', '_');
    std::string root = in.ctx.env_value(variable);
    if (root.empty() && !in.ctx.env_value("ProgramFiles").empty()) {
      root = join_path(in.ctx.env_value("ProgramFiles"), "NVIDIA GPU Computing Toolkit\\CUDA\\v" + version);
    }
    if (!root.empty()) add(join_path(root, "bin"));
  }
  return dirs;
}

inline void simulate_torch(const loader_input& in, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::string torch_lib =
      fw.native_file.empty() ? join_path(join_path(in.site.dir, "torch"), "lib") : parent_dir(fw.native_file);
  std::vector<std::string> user_dirs = torch_dll_folders(in, fw, torch_lib);
  std::vector<std::string> ignored;
  std::vector<std::string> path_dirs = discovery::absolute_entries(in.ctx, "PATH", ignored);
  process_view view{application_folder(in.env), user_dirs, path_dirs, {}};
  dependency_resolver resolver(view);
  std::vector<std::string> dlls;
  for (const std::string& name : discovery::names_starting(torch_lib, "", ignored)) {
    if (ends_ignoring_case(name, ".dll")) dlls.push_back(name);
  }
  std::sort(dlls.begin(), dlls.end(), [](const std::string& a, const std::string& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
      return std::toupper(static_cast<unsigned char>(x)) < std::toupper(static_cast<unsigned char>(y));
    });
  });
  std::vector<std::string> loaded;
  for (const std::string& name : dlls) {
    std::string dll = join_path(torch_lib, name);
    std::vector<missing_dependency> missing = resolver.missing(dll, load_kind::by_path);
    if (missing.empty()) {
      add_closure(resolver, dll, load_kind::by_path, loaded);
      resolver.assume_loaded(loaded);
      continue;
    }
    // Error 126: torch puts its folders before PATH and tries LoadLibraryW, whose imports are
    // searched as a bare name's are.
    std::vector<std::string> patched = user_dirs;
    patched.insert(patched.end(), path_dirs.begin(), path_dirs.end());
    dependency_resolver retry(process_view{view.app_dir, user_dirs, patched, loaded});
    if (win_error(missing.front()).find("126") != std::string::npos && retry.missing(dll, load_kind::by_name).empty()) {
      path_dirs = patched;
      resolver = retry;
      add_closure(resolver, dll, load_kind::by_name, loaded);
      resolver.assume_loaded(loaded);
      continue;
    }
    const missing_dependency& m = missing.front();
    std::string advice = discovery::advice_for(m.name);
    fw.problems.push_back(
        {"import_fails",
         "import " + fw.name + " fails: OSError: " + win_error(m) + " Error loading \"" + dll +
             "\" or one of its dependencies.",
         dll, "torch loads every DLL in " + torch_lib + " first, in name order; " + discovery::dependency_sentence(m),
         !advice.empty() ? advice
                         : "put " + file_name_of(m.name) + " into " + torch_lib +
                               " or into one of the folders torch adds (" + joined(user_dirs) + "); reinstalling " +
                               fw.distribution + " " + fw.version + " restores the files it ships"});
    return;
  }
  if (fw.native_file.empty()) return;
  discovery::import_walk walk =
      discovery::walk_imports(resolver, fw.native_file, load_kind::by_path,
                              [](const std::string&, std::vector<std::string>&) { return std::string(); });
  for (const auto& f : walk.found) {
    if (cuda_library_display(f.first)) fw.loads.push_back(discovery::describe_load(f.first, f.second, in.wheels));
  }
  check_cudnn(in, resolver, user_dirs,
              ", or copy cuDNN's DLLs into " + torch_lib + ", whose DLLs torch loads itself first", found);
}

inline void simulate_extension(const loader_input& in, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::vector<std::string> ignored;
  std::vector<std::string> path_dirs = discovery::absolute_entries(in.ctx, "PATH", ignored);
  dependency_resolver resolver(process_view{application_folder(in.env), {}, path_dirs, {}});
  std::vector<std::string> loaded;
  if (!fw.native_file.empty()) {
    std::vector<missing_dependency> missing = resolver.missing(fw.native_file, load_kind::by_path);
    if (!missing.empty()) {
      const missing_dependency& m = missing.front();
      std::string advice = discovery::advice_for(m.name);
      fw.problems.push_back(
          {"import_fails", fw.name + " cannot load " + file_name_of(fw.native_file) + ": " + win_error(m),
           m.needed_by(), discovery::dependency_sentence(m),
           !advice.empty()
               ? advice
               : "put " + file_name_of(m.name) + " beside " + file_name_of(fw.native_file) +
                     " or install what provides it; reinstalling " + fw.distribution + " restores the files it ships"});
      return;
    }
    add_closure(resolver, fw.native_file, load_kind::by_path, loaded);
    resolver.assume_loaded(loaded);
    discovery::import_walk walk =
        discovery::walk_imports(resolver, fw.native_file, load_kind::by_path,
                                [](const std::string&, std::vector<std::string>&) { return std::string(); });
    for (const auto& f : walk.found) {
      if (cuda_library_display(f.first)) fw.loads.push_back(discovery::describe_load(f.first, f.second, in.wheels));
    }
  }
  for (const std::string& name : found.by_name_loads) {
    std::vector<std::string> searched;
    std::string path = resolver.locate(name, "", searched, load_kind::by_name);
    if (path.empty()) {
      fw.problems.push_back({"by_name_load_fails",
                             fw.name + " loads " + name + " by name at run time, and that load finds nothing", "",
                             fw.name + "'s files name " + name +
                                 " as the library it loads when it first uses the GPU; a load by bare "
                                 "name searches " +
                                 by_name_places() + ": " + joined(searched),
                             "install the CUDA " + fw.cuda + " runtime and cuDNN " + fw.cudnn + " " + fw.name +
                                 " was built for, and put their bin folders on PATH"});
      continue;
    }
    fw.loads.push_back(discovery::describe_load(name, path, in.wheels));
    add_closure(resolver, path, load_kind::by_name, loaded);
    resolver.assume_loaded(loaded);
  }
  check_cudnn(in, resolver, {}, "", found);
}

inline void simulate_framework_load(const loader_input& in, discovery::found_framework& found) {
  if (found.spec->loader == discovery::loader_model::torch) return simulate_torch(in, found);
  simulate_extension(in, found);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
