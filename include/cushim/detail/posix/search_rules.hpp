// The Linux part of the search order (README.md, "Search order (Linux)"): install roots, conda and
// pip, then the system loader's own search done by cushim, then the toolkit's well-known folders.
#pragma once

#include <algorithm>
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

// pip wheels: <prefix>/lib/python3.X/site-packages/nvidia/<package>/lib
inline void add_pip_layouts(candidate_list& list, const char* variable, const char* prefix,
                            const fixed_list<const char*>& packages) {
  if (!prefix || !is_absolute_path(prefix)) return;
  std::string lib = join_path(prefix, "lib");
  std::vector<std::string> pythons = list_folder(lib);
  std::sort(pythons.begin(), pythons.end());
  for (const std::string& py : pythons) {
    if (py.compare(0, 7, "python3") != 0) continue;
    for (const char* package : packages) {
      std::string dir = join_path(join_path(join_path(join_path(lib, py), "site-packages/nvidia"), package), "lib");
      if (is_folder(dir)) list.add_dir(std::string(variable) + " pip nvidia/" + package, dir);
    }
  }
}

// The library's own install roots, the toolkit's, then conda and pip.
inline void add_install_rules(candidate_list& list, const library_descriptor& d, const search_inputs& in) {
  for (const char* variable : d.home_variables) add_root(list, variable, in.variable(variable));
  if (d.in_toolkit) {
    for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) add_root(list, variable, in.variable(variable));
  }
  if (const char* conda = in.variable("CONDA_PREFIX"); conda && is_absolute_path(conda)) {
    list.add_dir("CONDA_PREFIX/lib", join_path(conda, "lib"));
  }
  add_pip_layouts(list, "VIRTUAL_ENV", in.variable("VIRTUAL_ENV"), d.pip_packages);
  add_pip_layouts(list, "CONDA_PREFIX", in.variable("CONDA_PREFIX"), d.pip_packages);
}

// The system's own search by soname, done here so the file is loaded by absolute path and an
// empty or relative LD_LIBRARY_PATH entry can never make it the current directory; then the
// toolkit's well-known folders of the CUDA major the program was compiled for.
inline void add_system_rules(candidate_list& list, const library_descriptor& d) {
  const char* file_name = compiled_file_name(d);
  list.add_list("LD_LIBRARY_PATH", get_environment("LD_LIBRARY_PATH"));
  for (std::string& path : ld_so_cache_paths(system_ld_so_cache(), file_name)) {
    list.add_file("ld.so.cache", std::move(path));
  }
  for (const std::string& dir : system_library_dirs()) list.add_dir("system folder", dir);
  if (!d.in_toolkit) return;
  for (const std::string& name : versioned_children("/usr/local", "cuda-" + std::to_string(compiled_cuda_major()) + ".")) {
    std::string root = "/usr/local/" + name;
    list.add_dir(name + " (well-known)", join_path(root, "lib64"));
    list.add_dir(name + " (well-known)", join_path(root, "lib"));
  }
  list.add_dir("/usr/local/cuda (well-known)", "/usr/local/cuda/lib64");
  list.add_dir("/usr/local/cuda (well-known)", "/usr/local/cuda/lib");
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
