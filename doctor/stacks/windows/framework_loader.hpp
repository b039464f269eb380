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

#include "opencv_loader.hpp"
#include "paddle_loader.hpp"
#include "process_loads.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

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
    fw.problems.push_back(discovery::words::torch_dll_fails(fw, m, win_error(m), dll, torch_lib, user_dirs));
    return;
  }
  if (fw.native_file.empty()) return;
  discovery::add_known_loads(discovery::walk_imports(resolver, fw.native_file, load_kind::by_path), in.wheels, fw);
  check_cudnn(in, resolver, user_dirs, discovery::words::into_torch_lib(torch_lib), found);
}

inline void simulate_extension(const loader_input& in, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::vector<std::string> ignored;
  std::vector<std::string> path_dirs = discovery::absolute_entries(in.ctx, "PATH", ignored);
  dependency_resolver resolver(process_view{application_folder(in.env), {}, path_dirs, {}});
  std::vector<std::string> loaded;
  if (!fw.native_file.empty()) {
    extension_fails(resolver, found);
    if (!fw.problems.empty()) return;
    add_closure(resolver, fw.native_file, load_kind::by_path, loaded);
    resolver.assume_loaded(loaded);
    discovery::add_known_loads(discovery::walk_imports(resolver, fw.native_file, load_kind::by_path), in.wheels, fw);
  }
  for (const std::string& name : found.by_name_loads) {
    std::vector<std::string> searched;
    std::string path = discovery::locate_and_say(resolver, name, "", searched, load_kind::by_name);
    if (path.empty()) {
      fw.problems.push_back(discovery::words::by_name_load_fails(fw, name, searched));
      continue;
    }
    add_by_name_load(in, resolver, name, path, loaded, fw);
  }
  check_cudnn(in, resolver, {}, "", found);
}

inline void simulate_framework_load(const loader_input& in, discovery::found_framework& found) {
  if (found.spec->loader == discovery::loader_model::torch) return simulate_torch(in, found);
  if (found.spec->loader == discovery::loader_model::paddle) return simulate_paddle(in, found);
  if (found.spec->loader == discovery::loader_model::opencv) return simulate_opencv(in, found);
  simulate_extension(in, found);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
