// Linux: where toolkits and Python environments live, what their files are called, and what a
// library file says about itself (its real file name, its version word, its DT_NEEDED), read
// without running anything. The fixed locations go through context::system_path, so a test can
// put a whole machine under one folder (CUSHIM_DISCOVERY_ROOT).
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../context.hpp"
#include "../text_values.hpp"
#include <cushim/detail/files/elf.hpp>
#include <cushim/detail/files/words/elf.hpp>
#include <cushim/detail/search/sublibrary_specs.hpp>
#include <cushim/detail/search/posix/dependencies.hpp>
#include "files.hpp"
#include "../../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

using discovery::add_if_folder;
using discovery::located_folder;
using discovery::names_starting;

// --- Toolkits ------------------------------------------------------------------------------

constexpr const char* nvcc_file = "nvcc";
constexpr const char* toolkit_places = "/usr/local/cuda-*, /usr/local/cuda, /opt/cuda";

// The toolkits in the places NVIDIA's installers and the distributions put them.
inline std::vector<located_folder> toolkit_folders(const discovery::context& ctx, std::vector<std::string>& notes) {
  std::vector<located_folder> found;
  std::string local = ctx.system_path("/usr/local");
  for (const std::string& name : names_starting(local, "cuda-", notes)) {
    found.push_back({join_path(local, name), "/usr/local/cuda-*"});
  }
  add_if_folder(found, join_path(local, "cuda"), "/usr/local/cuda");
  add_if_folder(found, ctx.system_path("/opt/cuda"), "/opt/cuda");
  return found;
}

inline std::vector<std::string> toolkit_header_dirs(const std::string& root) { return {join_path(root, "include")}; }

// Where the compiler and the linker look for cuDNN by default: the distribution's packages put it
// there (libcudnn9-dev-cuda-13: /usr/include/x86_64-linux-gnu/cudnn_version_v9.h, linked from
// /usr/include/cudnn_version.h).
inline void build_cudnn_places(const discovery::context& ctx, std::vector<std::string>& headers,
                               std::vector<std::string>& libraries) {
  for (const char* dir : {"/usr/include", "/usr/include/x86_64-linux-gnu"}) headers.push_back(ctx.system_path(dir));
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"})
    libraries.push_back(ctx.system_path(dir));
}

// The folder the library a build variable names (CUDNN_LIBRARY: the library, or its folder) is in.
inline std::vector<std::string> cudnn_library_dirs(const std::string& named) {
  return {check_path(named).kind == path_kind::folder ? named : parent_dir(named)};
}

// Linux links the shared library itself: there is no import library to read.
inline std::string cudnn_import_library(const std::string&) { return {}; }
inline int cudnn_major_linked_by(const std::string&) { return 0; }

// A cuDNN unpacked by hand on Linux is reached through LD_LIBRARY_PATH, which the frameworks' and
// programs' loads already follow: no folder of a variable is examined as a cuDNN of its own.
constexpr const char* standalone_cudnn_variable = nullptr;

// Where a toolkit's libraries (and a cuDNN copied into it) are.
inline std::vector<std::string> toolkit_library_dirs(const std::string& root) {
  return {join_path(root, "lib64"), join_path(root, "lib"), join_path(root, "targets/x86_64-linux/lib")};
}

// The toolkit's CUDA runtime, whose real file name carries the full version (libcudart.so.12.4.127).
constexpr const char* cudart_file_prefix = "libcudart.so.";

inline std::string cudnn_main_file(int major) { return "libcudnn.so." + std::to_string(major); }

// "12.4.127" from a library's real file name (libcudart.so.12.4.127, libcudnn.so.8.5.0: links
// followed); empty when it has fewer than three numbers after ".so.".
inline std::string version_in_file_name(const std::string& path) {
  std::string name = file_name_of(final_link_target(path));
  std::size_t at = name.find(".so.");
  if (at == std::string::npos) return {};
  std::string version = name.substr(at + 4);
  std::vector<int> parts;
  if (!discovery::version_numbers(version, parts) || parts.size() < 3) return {};
  return version;
}

// Where a version in a library's file was read, for a person: "file name libcudart.so.12.4.127".
inline std::string version_file_text(const std::string& path) {
  return "file name " + file_name_of(final_link_target(path));
}

// A cuDNN file's version from the file alone: its real file name, else the 4-byte version word
// its sub-libraries export; `source` says which. Empty when neither says.
inline std::string cudnn_file_version(const std::string& path, const char* version_symbol, std::string& source) {
  std::string version = version_in_file_name(path);
  if (!version.empty()) {
    source = "its file name, " + file_name_of(final_link_target(path));
    return discovery::leading_parts(version, 3);
  }
  std::uint32_t packed = 0;
  file_source file(path);
  if (version_symbol && read_elf_symbol_bytes(file, version_symbol, &packed, sizeof packed)) {
    source = std::string("its version word ") + version_symbol;
    return std::to_string(packed >> 16 & 0xff) + "." + std::to_string(packed >> 8 & 0xff) + "." +
           std::to_string(packed & 0xff);
  }
  return {};
}

// What a library needs (DT_NEEDED); `error` says why nothing could be read.
inline std::vector<std::string> imports_of(const std::string& path, std::string& error) {
  file_source file(path);
  if (!file.ok()) return error = file.error(), std::vector<std::string>();
  elf_info info = read_elf(file);
  if (info.error != elf_error::none) return error = words::describe(info.fault), std::vector<std::string>();
  return info.needed;
}

// The CUDA major a library name belongs to (libcublasLt.so.11: 11, libcudart.so.12: 12); 0 for
// any other name.
inline int cuda_major_named_by(const std::string& name) {
  for (const char* prefix : {"libcublasLt.so.", "libcublas.so.", "libcudart.so.", "libnvrtc.so.", "libnvJitLink.so."}) {
    std::size_t n = std::char_traits<char>::length(prefix);
    if (name.compare(0, n, prefix) != 0) continue;
    std::vector<int> parts;
    std::string rest = name.substr(n) + ".0";
    if (discovery::version_numbers(rest, parts) && parts[0] >= 10 && parts[0] < 100) return parts[0];
  }
  return 0;
}

// The CUDA major a library's RUNPATH names (the wheels' $ORIGIN/../../cu13/lib: 13), with the
// sentence that says so; 0 when it names none.
inline int cuda_major_of_runpath(const std::string& path, std::string& source) {
  file_source file(path);
  elf_info info = read_elf(file);
  for (const std::string& entry : info.runpath) {
    for (std::size_t at = entry.find("/cu1"); at != std::string::npos; at = entry.find("/cu1", at + 1)) {
      if (at + 5 > entry.size() || !std::isdigit(static_cast<unsigned char>(entry[at + 4]))) continue;
      if (at + 5 < entry.size() && entry[at + 5] != '/') continue;
      source = file_name_of(path) + "'s RUNPATH names " + entry.substr(at + 1, 4);
      return std::atoi(entry.c_str() + at + 3);
    }
  }
  return 0;
}

// The cuDNN major of its main library's name (libcudnn.so.9: 9); 0 for any other name.
inline int cudnn_major_of_main(const std::string& name) {
  for (int major : {7, 8, 9}) {
    if (name == cudnn_main_file(major)) return major;
  }
  return 0;
}

// The system loader's cache of library locations, read for the framework loaders.
inline std::string loader_cache_path(const discovery::context& ctx) { return ctx.system_path("/etc/ld.so.cache"); }

// --- How a loader searches ------------------------------------------------------------------

// Linux resolves a dependency with the RUNPATH of the library that needs it.
inline const std::string& requester_for(const std::string&, const std::string& current) { return current; }

// The system's own libraries (libc, libstdc++) fit: what they need in turn is not walked.
inline bool walk_into(const std::string& path) {
  std::string dir = parent_dir(path);
  for (const std::string& system : system_library_dirs()) {
    if (dir == system) return false;
  }
  return true;
}

// --- Python environments -------------------------------------------------------------------

constexpr const char* python_commands[] = {"python", "python3"};

// The file a shell runs for a command name.
inline std::string command_file_name(const char* command) { return command; }

// Where an environment's Python series was read when no file gave the full version.
inline std::string series_source(const std::string& series) { return discovery::words::python_folder_source(series); }
constexpr const char* interpreter_names[] = {"python3", "python"};

// The prefix an interpreter belongs to: <prefix>/bin/python3.
inline std::string prefix_of_interpreter(const std::string& interpreter) { return parent_dir(parent_dir(interpreter)); }

// The interpreter of a prefix; empty when it has none.
inline std::string interpreter_in(const std::string& prefix) {
  for (const char* name : interpreter_names) {
    std::string path = join_path(join_path(prefix, "bin"), name);
    if (is_executable_file(path)) return path;
  }
  return {};
}

// "3.11" for every lib/python3.11 of a prefix (lib64 too), in name order.
inline std::vector<std::string> python_series_in(const std::string& prefix, std::vector<std::string>& notes) {
  std::vector<std::string> series;
  for (const char* lib : {"lib", "lib64"}) {
    for (const std::string& name : names_starting(join_path(prefix, lib), "python", notes)) {
      std::vector<int> parts;
      if (discovery::version_numbers(name.substr(6), parts)) discovery::add_unique(series, name.substr(6));
    }
  }
  return series;
}

// The folders a prefix's packages are in: lib/pythonX.Y/site-packages (and lib64); Debian's
// system Python also reads /usr/local/lib/pythonX.Y/dist-packages and /usr/lib/python3/dist-packages.
inline std::vector<std::string> site_packages_of(const discovery::context& ctx, const std::string& prefix,
                                                 const std::string& series) {
  bool system = identity_of(prefix) == identity_of(ctx.system_path("/usr"));
  std::vector<std::string> dirs;
  auto add = [&](const std::string& dir) {
    if (check_path(dir).kind != path_kind::absent) discovery::add_unique(dirs, dir);
  };
  if (system) add(ctx.system_path("/usr/local/lib/python" + series + "/dist-packages"));
  for (const char* lib : {"lib", "lib64"}) {
    add(join_path(join_path(join_path(prefix, lib), "python" + series), "site-packages"));
    if (system) add(join_path(join_path(join_path(prefix, lib), "python" + series), "dist-packages"));
  }
  if (system) add(ctx.system_path("/usr/lib/python3/dist-packages"));
  return dirs;
}

// include/pythonX.Y/patchlevel.h: the PY_VERSION of a full CPython install (not of a venv).
inline std::string patchlevel_header(const std::string& prefix, const std::string& series) {
  return join_path(join_path(join_path(prefix, "include"), "python" + series), "patchlevel.h");
}

// The user sites: ~/.local/lib/pythonX.Y/site-packages, each with its series.
struct user_site_folder {
  std::string path;
  std::string series;
};

inline std::vector<user_site_folder> user_sites(const discovery::context&, const std::string& home,
                                                std::vector<std::string>& notes) {
  std::vector<user_site_folder> sites;
  if (home.empty()) return sites;
  std::string lib = join_path(home, ".local/lib");
  for (const std::string& name : names_starting(lib, "python", notes)) {
    std::string site = join_path(join_path(lib, name), "site-packages");
    if (check_path(site).kind == path_kind::folder) sites.push_back({site, name.substr(6)});
  }
  return sites;
}

inline std::string home_folder(const discovery::context& ctx) {
  std::string home = ctx.env_value("HOME");
  if (home.empty() && !ctx.redirected()) home = password_home();
  return home;
}

// The folder of JetBrains' per-version options folders: $XDG_CONFIG_HOME/JetBrains, ~/.config/JetBrains.
inline std::string jetbrains_config_root(const discovery::context& ctx, const std::string& home) {
  std::string config = ctx.env_value("XDG_CONFIG_HOME");
  if (config.empty() && !home.empty()) config = join_path(home, ".config");
  return config.empty() ? config : join_path(config, "JetBrains");
}

inline std::string native_separators(std::string path) { return path; }

// The scripts conda runs when an environment is activated (etc/conda/activate.d), for sh and bash.
constexpr const char* activate_script_suffix = ".sh";

// The conda installations in their usual places: ~/miniconda3, /opt/conda, ...
inline std::vector<located_folder> conda_roots(const discovery::context& ctx, const std::string& home) {
  std::vector<located_folder> found;
  if (!home.empty()) {
    for (const char* name : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba"}) {
      add_if_folder(found, join_path(home, name), "~/miniconda3, ~/anaconda3, ~/miniforge3, ...");
    }
  }
  for (const char* path : {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3", "/opt/miniforge3"}) {
    add_if_folder(found, ctx.system_path(path), "/opt/conda, /opt/miniconda3, ...");
  }
  return found;
}

// conda's own executable: <root>/bin/conda (CONDA_EXE).
inline std::string conda_root_of_executable(const std::string& conda_exe) { return parent_dir(parent_dir(conda_exe)); }

// The Pythons pyenv installed: $PYENV_ROOT (default ~/.pyenv)/versions/*.
inline std::string pyenv_root(const discovery::context& ctx, const std::string& home) {
  std::string root = ctx.env_value("PYENV_ROOT");
  return root.empty() && !home.empty() ? join_path(home, ".pyenv") : root;
}

inline std::string pyenv_versions(const std::string& root) { return join_path(root, "versions"); }

// The system's interpreters: /usr/bin/python3.X (prefix /usr), and those built from source into
// /usr/local/bin (prefix /usr/local).
struct system_python {
  std::string prefix;
  std::string interpreter;
  std::string series;
};

inline std::vector<system_python> system_pythons(const discovery::context& ctx, std::vector<std::string>& notes) {
  std::vector<system_python> found;
  for (const char* prefix : {"/usr", "/usr/local"}) {
    std::string root = ctx.system_path(prefix);
    for (const std::string& name : names_starting(join_path(root, "bin"), "python3.", notes)) {
      std::vector<int> parts;
      std::string series = name.substr(6);
      if (!discovery::version_numbers(series, parts) || series.find_first_not_of("0123456789.") != std::string::npos) {
        continue;  // python3.11-config, python3.11m
      }
      found.push_back({root, join_path(join_path(root, "bin"), name), series});
    }
  }
  return found;
}

// A pyenv shim (<pyenv root>/shims/python): a script that starts the version pyenv selects.
inline bool is_pyenv_shim(const std::string& path, const std::string& root) {
  return !root.empty() && parent_dir(path) == join_path(root, "shims");
}

// What is worth knowing of the file a bare command starts: nothing on Linux.
inline std::string command_note(const std::string&) { return {}; }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
