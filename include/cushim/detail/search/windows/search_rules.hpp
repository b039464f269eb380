// The Windows part of the search order (docs/windows.md, "Windows"): the places NVIDIA's
// installers, conda and pip put the DLLs, then PATH, the installers' default folders and the
// system's default DLL folders.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "../descriptor.hpp"
#include "../search_list.hpp"
#include "../words/loading.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// <root>\bin\<cuda major>.<minor>[\x64]: the layout of an installer that ships one build per CUDA
// minor (cuDNN 9's), for the CUDA major the program was compiled for.
inline void add_installer_bins(candidate_list& list, const std::string& rule, const std::string& root, int cuda_major,
                               const std::string& rule_suffix = "") {
  std::string bin = join_path(root, "bin");
  for (const std::string& cuda : versioned_children(bin, std::to_string(cuda_major) + ".")) {
    list.add_dir(rule + "\\bin\\" + cuda + rule_suffix, join_path(bin, cuda));
    list.add_dir(rule + "\\bin\\" + cuda + "\\x64" + rule_suffix, join_path(join_path(bin, cuda), "x64"));
  }
}

// <root>\bin and <root>\bin\x64 of an install-root variable; a library's own root also <root>
// and its installer's layout.
inline void add_windows_root(candidate_list& list, const std::string& rule, const char* value, bool own_root,
                             bool installer_layout, int cuda_major) {
  if (!value) return;
  if (!is_absolute_path(value)) {
    list.add_dir(rule, value);  // reported as skipped
    return;
  }
  if (own_root) list.add_dir(rule, value);
  list.add_dir(rule + "\\bin", join_path(value, "bin"));
  list.add_dir(rule + "\\bin\\x64", join_path(join_path(value, "bin"), "x64"));
  if (installer_layout) add_installer_bins(list, rule, value, cuda_major);
}

// CUDA_PATH_V<major>_<minor> of the CUDA major the program was compiled for, newest minor first.
inline std::vector<std::string> versioned_cuda_path_variables(int cuda_major) {
  std::string prefix = "CUDA_PATH_V" + std::to_string(cuda_major) + "_";
  std::vector<std::string> names;
  for (std::string& name : environment_names()) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    if (name.find_first_not_of("0123456789", prefix.size()) != std::string::npos) continue;
    names.push_back(std::move(name));
  }
  sort_by_number_after(names, prefix.size());
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
      dir = expand_environment(dir);
      rule += " (" + e.text + ")";
    }
    list.add_dir(rule, dir);
  }
}

// The wheels in one site-packages folder: nvidia\<package>\bin for each of the library's pip
// packages, then torch\lib, where PyTorch's wheels bundle the CUDA DLLs they were built with.
inline void add_wheels(candidate_list& list, const std::string& where, const std::string& site_packages,
                       const search_target& t) {
  for (const std::string& package : t.pip_packages) {
    std::string dir = join_path(join_path(join_path(site_packages, "nvidia"), package), "bin");
    if (is_folder(dir)) list.add_dir(where + " pip nvidia\\" + package + "\\bin", dir);
  }
  std::string torch = join_path(join_path(site_packages, "torch"), "lib");
  if (t.d->in_toolkit && is_folder(torch)) list.add_dir(where + " torch\\lib", torch);
}

// pip wheels under a prefix an environment variable names: <prefix>\Lib\site-packages.
inline void add_prefix_wheels(candidate_list& list, const char* variable, const char* prefix, const search_target& t) {
  if (!prefix || !is_absolute_path(prefix)) return;
  add_wheels(list, variable, join_path(join_path(prefix, "Lib"), "site-packages"), t);
}

// pip's other installs: the user's (pip install --user, %APPDATA%\Python\Python3*\site-packages),
// the per-user interpreters' (%LOCALAPPDATA%\Programs\Python\Python3*), and the site-packages of
// each python.exe on PATH.
inline void add_installed_wheels(candidate_list& list, const search_target& t, const search_inputs& in) {
  if (const char* appdata = in.variable("APPDATA"); appdata && is_absolute_path(appdata)) {
    std::string python = join_path(appdata, "Python");
    for (const std::string& v : versioned_children(python, "Python3")) {
      add_wheels(list, "%APPDATA%\\Python\\" + v, join_path(join_path(python, v), "site-packages"), t);
    }
  }
  if (const char* local = in.variable("LOCALAPPDATA"); local && is_absolute_path(local)) {
    std::string python = join_path(join_path(local, "Programs"), "Python");
    for (const std::string& v : versioned_children(python, "Python3")) {
      add_wheels(list, "%LOCALAPPDATA%\\Programs\\Python\\" + v,
                 join_path(join_path(join_path(python, v), "Lib"), "site-packages"), t);
    }
  }
  if (const char* path = in.use_environment ? get_environment("PATH") : nullptr) {
    for (const path_entry& e : split_path_list(path)) {
      if (e.kind != entry_kind::absolute || check_file(join_path(e.text, "python.exe")).state != file_state::regular)
        continue;
      add_wheels(list, "python.exe on PATH (" + e.text + ")", join_path(join_path(e.text, "Lib"), "site-packages"), t);
    }
  }
}

// The library's own install roots, the toolkit's, then conda and pip.
inline void add_install_rules(candidate_list& list, const search_target& t, const search_inputs& in) {
  const library_descriptor& d = *t.d;
  for (const char* variable : d.home_variables) {
    add_windows_root(list, variable, in.variable(variable), true, d.windows_installer != nullptr, t.cuda_major);
  }
  if (d.in_toolkit) {
    if (in.use_environment) {
      for (const std::string& variable : versioned_cuda_path_variables(t.cuda_major)) {
        add_windows_root(list, variable, in.variable(variable.c_str()), false, false, t.cuda_major);
      }
    }
    for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) {
      add_windows_root(list, variable, in.variable(variable), false, false, t.cuda_major);
    }
  }
  if (const char* conda = in.variable("CONDA_PREFIX"); conda && is_absolute_path(conda)) {
    list.add_dir("CONDA_PREFIX\\Library\\bin", join_path(join_path(conda, "Library"), "bin"));
  }
  add_prefix_wheels(list, "VIRTUAL_ENV", in.variable("VIRTUAL_ENV"), t);
  add_prefix_wheels(list, "CONDA_PREFIX", in.variable("CONDA_PREFIX"), t);
  add_installed_wheels(list, t, in);
}

// %ProgramFiles%\<installer>\v<major>.*\bin\<cuda major>.*[\x64] (a library with its own installer)
// and %ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\v<cuda major>.*\bin, newest first.
inline void add_program_files(candidate_list& list, const search_target& t, const char* program_files) {
  if (!program_files || !is_absolute_path(program_files)) return;
  const library_descriptor& d = *t.d;
  if (d.windows_installer) {
    std::string installer = join_path(program_files, d.windows_installer);
    for (const std::string& v : versioned_children(installer, "v" + std::to_string(t.major) + ".")) {
      add_installer_bins(list, "%ProgramFiles%\\" + std::string(d.windows_installer) + "\\" + v,
                         join_path(installer, v), t.cuda_major, " (well-known)");
    }
  }
  if (!d.in_toolkit) return;
  std::string toolkit = join_path(program_files, "NVIDIA GPU Computing Toolkit\\CUDA");
  for (const std::string& v : versioned_children(toolkit, "v" + std::to_string(t.cuda_major) + ".")) {
    list.add_dir("%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA\\" + v + "\\bin (well-known)",
                 join_path(join_path(toolkit, v), "bin"));
  }
}

// The system's own search, done here so every file is loaded by absolute path and PATH's empty
// or relative entries can never make it the current folder.
inline void add_system_rules(candidate_list& list, const search_target& t) {
  add_path_variable(list, get_environment("PATH"));
  add_program_files(list, t, get_environment("ProgramFiles"));
  list.add_default_dirs(attempt_texts::default_dll_folders_rule);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
