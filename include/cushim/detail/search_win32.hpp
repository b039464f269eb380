// The Windows search order (README.md, "Search order (Windows)"): the same rules as on Linux where
// they apply, then the places NVIDIA's installers, conda and pip put the DLLs, then PATH. Builds
// paths only; library.hpp tries them. Included by search.hpp.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "library_spec.hpp"
#include "path_list.hpp"
#include "platform.hpp"

namespace cushim {
namespace detail {

// Children of `folder` named <prefix><minor>[...], such as v13.0 and v13.2 for "v13.", newest
// minor first.
inline std::vector<std::string> versioned_children(const std::string& folder, const std::string& prefix) {
  std::vector<std::pair<int, std::string>> found;
  for (const std::string& name : platform::list_folder(folder)) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const char* minor = name.c_str() + prefix.size();
    if (*minor < '0' || *minor > '9') continue;
    found.emplace_back(std::atoi(minor), name);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> names;
  for (auto& f : found) names.push_back(std::move(f.second));
  return names;
}

// <root>\bin\<cuda major>.<minor>[\x64]: the cuDNN 9 installer's layout, one folder per CUDA
// minor it was built for.
inline void add_cudnn_installer_bins(candidate_list& list, const std::string& rule, const std::string& root,
                                     const std::string& rule_suffix = "") {
  std::string bin = join_path(root, "bin");
  for (const std::string& cuda : versioned_children(bin, std::to_string(CUSHIM_CUDART_MAJOR) + ".")) {
    list.add_dir(rule + "\\bin\\" + cuda + rule_suffix, join_path(bin, cuda));
    list.add_dir(rule + "\\bin\\" + cuda + "\\x64" + rule_suffix, join_path(join_path(bin, cuda), "x64"));
  }
}

// <root>\bin and <root>\bin\x64 of an install-root variable; cuDNN also <root> and the installer layout.
inline void add_windows_root(candidate_list& list, const std::string& rule, const char* value, bool cudnn) {
  if (!value) return;
  if (!is_absolute_path(value)) {
    list.add_dir(rule, value);  // reported as skipped
    return;
  }
  if (cudnn) list.add_dir(rule, value);
  list.add_dir(rule + "\\bin", join_path(value, "bin"));
  list.add_dir(rule + "\\bin\\x64", join_path(join_path(value, "bin"), "x64"));
  if (cudnn) add_cudnn_installer_bins(list, rule, value);
}

// CUDA_PATH_V<major>_<minor> of the CUDA major the program was compiled for, newest minor first.
inline std::vector<std::string> versioned_cuda_path_variables() {
  std::string prefix = "CUDA_PATH_V" + std::to_string(CUSHIM_CUDART_MAJOR) + "_";
  std::vector<std::pair<int, std::string>> found;
  for (const std::string& name : platform::environment_names()) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    if (name.find_first_not_of("0123456789", prefix.size()) != std::string::npos) continue;
    found.emplace_back(std::atoi(name.c_str() + prefix.size()), name);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> names;
  for (auto& f : found) names.push_back(std::move(f.second));
  return names;
}

// PATH as the system loader reads it: quotes stripped, %VAR% expanded; empty and relative
// entries are kept so they are reported as skipped.
inline void add_path_variable(candidate_list& list, const char* value) {
  if (!value) return;
  std::size_t i = 0;
  for (const path_entry& e : split_path_list(value)) {
    std::string rule = "PATH[" + std::to_string(i++) + "]";
    std::string dir = e.text;
    if (dir.find('%') != std::string::npos) {
      dir = platform::expand_environment(dir);
      rule += " (" + e.text + ")";
    }
    list.add_dir(rule, dir);
  }
}

// pip wheels: <prefix>\Lib\site-packages\nvidia\<package>\bin
inline void add_windows_pip_layouts(candidate_list& list, const char* variable, const char* prefix,
                                    const std::vector<const char*>& packages) {
  if (!prefix || !is_absolute_path(prefix)) return;
  std::string nvidia = join_path(join_path(join_path(prefix, "Lib"), "site-packages"), "nvidia");
  for (const char* package : packages) {
    std::string dir = join_path(join_path(nvidia, package), "bin");
    if (platform::is_folder(dir)) list.add_dir(std::string(variable) + " pip nvidia\\" + package + "\\bin", dir);
  }
}

// %ProgramFiles%\NVIDIA\CUDNN\v<major>.*\bin\<cuda major>.*[\x64] (cuDNN only) and
// %ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\v<cuda major>.*\bin, newest first.
inline void add_program_files(candidate_list& list, const library_spec& spec, const char* program_files) {
  if (!program_files || !is_absolute_path(program_files)) return;
  if (spec.lib == library::cudnn) {
    std::string cudnn = join_path(join_path(program_files, "NVIDIA"), "CUDNN");
    for (const std::string& v : versioned_children(cudnn, "v" + std::to_string(spec.compiled_major) + ".")) {
      add_cudnn_installer_bins(list, "%ProgramFiles%\\NVIDIA\\CUDNN\\" + v, join_path(cudnn, v), " (well-known)");
    }
  }
  std::string toolkit = join_path(join_path(program_files, "NVIDIA GPU Computing Toolkit"), "CUDA");
  for (const std::string& v : versioned_children(toolkit, "v" + std::to_string(CUSHIM_CUDART_MAJOR) + ".")) {
    list.add_dir("%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA\\" + v + "\\bin (well-known)",
                 join_path(join_path(toolkit, v), "bin"));
  }
}

inline std::vector<candidate> search_candidates(const library_spec& spec, const search_inputs& in) {
  candidate_list list(spec.file_name);
  add_leading_rules(list, in);
  auto env = [&](const char* name) { return in.use_environment ? platform::get_environment(name) : nullptr; };

  if (spec.lib == library::cudnn) {
    for (const char* variable : {"CUDNN_PATH", "CUDNN_HOME", "CUDNN_ROOT_DIR"}) {
      add_windows_root(list, variable, env(variable), true);
    }
  }
  if (in.use_environment) {
    for (const std::string& variable : versioned_cuda_path_variables()) {
      add_windows_root(list, variable, env(variable.c_str()), false);
    }
  }
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) add_windows_root(list, variable, env(variable), false);
  if (const char* conda = env("CONDA_PREFIX"); conda && is_absolute_path(conda)) {
    list.add_dir("CONDA_PREFIX\\Library\\bin", join_path(join_path(conda, "Library"), "bin"));
  }
  add_windows_pip_layouts(list, "VIRTUAL_ENV", env("VIRTUAL_ENV"), spec.pip_packages);
  add_windows_pip_layouts(list, "CONDA_PREFIX", env("CONDA_PREFIX"), spec.pip_packages);

  // The system's own search, done here so every file is loaded by absolute path and PATH's empty
  // or relative entries can never make it the current folder.
  add_path_variable(list, platform::get_environment("PATH"));
  add_program_files(list, spec, platform::get_environment("ProgramFiles"));
  list.add_default_dirs("the system's default DLL folders");
  return list.take();
}

}  // namespace detail
}  // namespace cushim
