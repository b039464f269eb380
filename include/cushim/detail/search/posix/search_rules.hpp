// The Linux part of the search order (docs/search-order.md, "Search order (Linux)"): install roots, conda and
// pip, then the system loader's own search done by cushim, then the toolkit's well-known folders.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "../descriptor.hpp"
#include "../search_list.hpp"
#include "dependencies.hpp"
#include "ld_so_cache.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// <root>, <root>/lib64, <root>/lib for an install-root variable.
inline void add_root(candidate_list& list, const char* variable, const char* value) {
  if (!value) return;
  std::string rule = variable;
  list.add_dir(rule, value);
  if (!is_absolute_path(value)) return;  // reported once above
  list.add_dir(rule + "/lib64", join_path(value, "lib64"));
  list.add_dir(rule + "/lib", join_path(value, "lib"));
}

// The wheels in one site-packages folder: nvidia/<package>/lib for each of the library's pip
// packages, then torch/lib, where PyTorch's wheels bundle the CUDA libraries they were built with.
inline void add_wheels(candidate_list& list, const std::string& where, const std::string& site_packages,
                       const std::vector<std::string>& packages, bool in_toolkit) {
  for (const std::string& package : packages) {
    std::string dir = join_path(join_path(join_path(site_packages, "nvidia"), package), "lib");
    if (is_folder(dir)) list.add_dir(where + " pip nvidia/" + package, dir);
  }
  std::string torch = join_path(join_path(site_packages, "torch"), "lib");
  if (in_toolkit && is_folder(torch)) list.add_dir(where + " torch/lib", torch);
}

// <lib>/python3*/<kind> for each kind (site-packages, dist-packages), in name order.
inline std::vector<std::string> site_packages_in(const std::string& lib, std::initializer_list<const char*> kinds) {
  std::vector<std::string> pythons = list_folder(lib, "python3"), found;
  sort_names(pythons);
  for (const std::string& py : pythons) {
    for (const char* kind : kinds) {
      std::string dir = join_path(join_path(lib, py), kind);
      if (is_folder(dir)) found.push_back(dir);
    }
  }
  return found;
}

// pip wheels under a prefix an environment variable names: <prefix>/lib/python3.X/site-packages.
inline void add_prefix_wheels(candidate_list& list, const char* variable, const char* prefix, const search_target& t) {
  if (!prefix || !is_absolute_path(prefix)) return;
  for (const std::string& sp : site_packages_in(join_path(prefix, "lib"), {"site-packages"})) {
    add_wheels(list, variable, sp, t.pip_packages, t.d->in_toolkit);
  }
}

// pip's other installs, in the order Python's own sys.path has them: the user's (pip install
// --user), /usr/local's (pip as root), the distribution's (python3-* packages).
inline void add_installed_wheels(candidate_list& list, const search_target& t, const search_inputs& in) {
  if (const char* home = in.variable("HOME"); home && is_absolute_path(home)) {
    for (const std::string& sp : site_packages_in(join_path(home, ".local/lib"), {"site-packages"})) {
      add_wheels(list, "~/.local", sp, t.pip_packages, t.d->in_toolkit);
    }
  }
  for (const std::string& sp : site_packages_in(system_path("/usr/local/lib"), {"dist-packages", "site-packages"})) {
    add_wheels(list, "/usr/local", sp, t.pip_packages, t.d->in_toolkit);
  }
  for (const std::string& sp : site_packages_in(system_path("/usr/lib"), {"dist-packages", "site-packages"})) {
    add_wheels(list, "/usr/lib", sp, t.pip_packages, t.d->in_toolkit);
  }
}

// The library's own install roots, the toolkit's, then conda and pip.
inline void add_install_rules(candidate_list& list, const search_target& t, const search_inputs& in) {
  for (const char* variable : t.d->home_variables) add_root(list, variable, in.variable(variable));
  if (t.d->in_toolkit) {
    for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) add_root(list, variable, in.variable(variable));
  }
  if (const char* conda = in.variable("CONDA_PREFIX"); conda && is_absolute_path(conda)) {
    list.add_dir("CONDA_PREFIX/lib", join_path(conda, "lib"));
  }
  add_prefix_wheels(list, "VIRTUAL_ENV", in.variable("VIRTUAL_ENV"), t);
  add_prefix_wheels(list, "CONDA_PREFIX", in.variable("CONDA_PREFIX"), t);
  add_installed_wheels(list, t, in);
}

// The system's own search by soname, done here so the file is loaded by absolute path and an
// empty or relative LD_LIBRARY_PATH entry can never make it the current directory; then the
// toolkit's well-known folders of the CUDA major the program was compiled for.
inline void add_system_rules(candidate_list& list, const search_target& t) {
  const std::string& file_name = t.file_name;
  list.add_list("LD_LIBRARY_PATH", get_environment("LD_LIBRARY_PATH"));
  for (std::string& path : ld_so_cache_paths(system_ld_so_cache(), file_name)) {
    list.add_file("ld.so.cache", system_path(path));
  }
  for (const std::string& dir : system_library_dirs()) list.add_dir("system folder", dir);
  if (!t.d->in_toolkit) return;
  std::string local = system_path("/usr/local");
  for (const std::string& name : versioned_children(local, "cuda-" + std::to_string(t.cuda_major) + ".")) {
    std::string root = join_path(local, name);
    list.add_dir(name + " (well-known)", join_path(root, "lib64"));
    list.add_dir(name + " (well-known)", join_path(root, "lib"));
  }
  list.add_dir("/usr/local/cuda (well-known)", join_path(local, "cuda/lib64"));
  list.add_dir("/usr/local/cuda (well-known)", join_path(local, "cuda/lib"));
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
