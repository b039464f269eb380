// Windows: where toolkits and Python environments live (%ProgramFiles%, %LOCALAPPDATA%,
// %APPDATA%, %USERPROFILE%, %ProgramData%: all from the environment discovery was given, so a
// test puts a whole machine under one folder), what their files are called, and what a DLL says
// about itself (its version resource and import table), read without loading it.
#pragma once

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "../context.hpp"
#include "../text_values.hpp"
#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/files/words/pe.hpp>
#include <cushim/detail/search/windows/dependencies.hpp>
#include <cushim/detail/search/sublibrary_specs.hpp>
#include "files.hpp"
#include "../../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

using discovery::add_if_folder;
using discovery::located_folder;
using discovery::names_starting;

inline bool starts_ignoring_case(const std::string& name, const char* prefix) {
  std::size_t n = std::char_traits<char>::length(prefix);
  return name.size() >= n && pe_format::same_name_ignoring_case(name.substr(0, n), prefix);
}

inline bool ends_ignoring_case(const std::string& name, const char* suffix) {
  std::size_t n = std::char_traits<char>::length(suffix);
  return name.size() >= n && pe_format::same_name_ignoring_case(name.substr(name.size() - n), suffix);
}

// --- Toolkits ------------------------------------------------------------------------------

constexpr const char* nvcc_file = "nvcc.exe";
constexpr const char* toolkit_places = "%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA\\v*, CONDA_PREFIX\\Library";

inline std::vector<located_folder> toolkit_folders(const discovery::context& ctx, std::vector<std::string>& notes) {
  std::vector<located_folder> found;
  std::string program_files = ctx.env_value("ProgramFiles");
  if (!program_files.empty()) {
    std::string cuda = join_path(program_files, "NVIDIA GPU Computing Toolkit\\CUDA");
    for (const std::string& name : names_starting(cuda, "v", notes)) {
      found.push_back({join_path(cuda, name), "%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA\\v*"});
    }
  }
  std::string conda = ctx.env_value("CONDA_PREFIX");
  if (!conda.empty()) {  // conda's CUDA packages put the toolkit into <env>\Library
    std::string library = join_path(conda, "Library");
    std::vector<std::string> ignored;
    if (check_path(join_path(join_path(library, "bin"), nvcc_file)).kind == path_kind::file ||
        !names_starting(join_path(library, "bin"), "cudart64_", ignored).empty()) {
      found.push_back({library, "CONDA_PREFIX\\Library"});
    }
  }
  return found;
}

inline std::vector<std::string> toolkit_header_dirs(const std::string& root) { return {join_path(root, "include")}; }

// Windows builds have no default folders for cuDNN: only the build variables name one.
inline void build_cudnn_places(const discovery::context&, std::vector<std::string>&, std::vector<std::string>&) {}

// The folders the library a build variable names (CUDNN_LIBRARY) leads to: NVIDIA's archive keeps
// the import library in lib\x64 (cudnn.lib, what CUDNN_LIBRARY names) and the DLLs in bin beside lib.
inline std::vector<std::string> cudnn_library_dirs(const std::string& named) {
  std::string dir = check_path(named).kind == path_kind::folder ? named : parent_dir(named);
  std::vector<std::string> dirs = {dir};
  std::string lib = pe_format::same_name_ignoring_case(file_name_of(dir), "x64") ? parent_dir(dir) : dir;
  if (pe_format::same_name_ignoring_case(file_name_of(lib), "lib")) dirs.push_back(join_path(parent_dir(lib), "bin"));
  return dirs;
}

// The cudnn64_N.dll an import library links to, from the DLL name its import records carry; 0
// when it names none (or cannot be read).
inline int cudnn_major_linked_by(const std::string& import_library) {
  file_source file(import_library);
  if (!file.ok()) return 0;
  std::string bytes(std::size_t(file.size() < (16u << 20) ? file.size() : (16u << 20)), '\0');
  if (bytes.empty() || !file.read(0, &bytes[0], bytes.size())) return 0;
  for (std::size_t at = bytes.find("cudnn64_"); at != std::string::npos; at = bytes.find("cudnn64_", at + 1)) {
    std::size_t digits = at + 8, end = digits;
    while (end < bytes.size() && std::isdigit(static_cast<unsigned char>(bytes[end]))) ++end;
    if (end > digits && bytes.compare(end, 4, ".dll") == 0) return std::atoi(bytes.c_str() + digits);
  }
  return 0;
}

// The import library a build links cuDNN with, in the archive's layout beside the folder of its
// DLLs (bin): lib\x64\cudnn.lib, or lib\cudnn.lib; empty without one.
inline std::string cudnn_import_library(const std::string& dll_dir) {
  std::string root = parent_dir(dll_dir);
  for (const char* folder : {"lib\\x64", "lib"}) {
    std::string path = join_path(join_path(root, folder), "cudnn.lib");
    if (check_path(path).kind == path_kind::file) return path;
  }
  return {};
}

// The variable whose folders a cuDNN unpacked by hand is found through (C:\cudnn\8.5.0.96\cuda\bin
// on PATH), its headers and import library beside them.
constexpr const char* standalone_cudnn_variable = "PATH";

// The DLLs are in bin (a cuDNN copied in too: bin\cudnn*.dll, its import libraries in lib\x64).
inline std::vector<std::string> toolkit_library_dirs(const std::string& root) { return {join_path(root, "bin")}; }

constexpr const char* cudart_file_prefix = "cudart64_";

inline std::string cudnn_main_file(int major) { return "cudnn64_" + std::to_string(major) + ".dll"; }

// "12.4.127" from a DLL's version resource (either form: "12.4.127" or "6.14.11.12040"); empty
// without one.
inline std::string version_in_file_name(const std::string& path) {
  file_source file(path);
  pe_info info = read_pe_version(file);
  std::vector<int> parts;
  if (!discovery::version_numbers(info.file_version, parts)) return {};
  if (parts.size() == 4 && parts[3] >= 10000 && parts[3] <= 99999) {
    return std::to_string(parts[3] / 1000) + "." + std::to_string(parts[3] % 1000 / 10) + ".0";
  }
  return parts[0] >= 7 && parts[0] < 100 && parts.size() >= 3 ? info.file_version : std::string();
}

inline std::string version_file_text(const std::string& path) { return "FileVersion of " + file_name_of(path); }

// A cuDNN DLL's version from its version resource (FileVersion "8.5.0.96": "8.5.0").
inline std::string cudnn_file_version(const std::string& path, const char*, std::string& source) {
  file_source file(path);
  pe_info info = read_pe_version(file);
  std::vector<int> parts;
  if (!discovery::version_numbers(info.file_version, parts) || parts.size() < 3 || parts[0] < 7 || parts[0] > 99) {
    return {};
  }
  source = "its FileVersion " + info.file_version;
  return discovery::leading_parts(info.file_version, 3);
}

// What a DLL imports, delay-loaded ones too; `error` says why nothing could be read.
inline std::vector<std::string> imports_of(const std::string& path, std::string& error) {
  file_source file(path);
  if (!file.ok()) return error = file.error(), std::vector<std::string>();
  pe_info info = read_pe(file);
  if (info.error != pe_error::none) return error = words::describe(info.fault), std::vector<std::string>();
  std::vector<std::string> all = info.imports;
  all.insert(all.end(), info.delay_imports.begin(), info.delay_imports.end());
  return all;
}

// The CUDA major a DLL name belongs to: cublasLt64_11.dll and cublas64_12.dll by their number,
// cudart64_110.dll and nvrtc64_112_0.dll by its first two digits; 0 for any other name.
inline int cuda_major_named_by(const std::string& name) {
  for (const char* prefix : {"cublasLt64_", "cublas64_", "cudart64_", "nvrtc64_", "nvJitLink_"}) {
    if (!starts_ignoring_case(name, prefix)) continue;
    std::size_t at = std::char_traits<char>::length(prefix);
    std::string digits;
    while (at < name.size() && std::isdigit(static_cast<unsigned char>(name[at]))) digits += name[at++];
    if (digits.size() >= 2) return std::stoi(digits.substr(0, 2));
  }
  return 0;
}

// A DLL names no folders to search its dependencies in: nothing to read a CUDA major from.
inline int cuda_major_of_runpath(const std::string&, std::string&) { return 0; }

inline int cudnn_major_of_main(const std::string& name) {
  for (int major : {7, 8, 9}) {
    if (pe_format::same_name_ignoring_case(name, cudnn_main_file(major))) return major;
  }
  return 0;
}

// Windows' loader keeps no cache of library locations.
inline std::string loader_cache_path(const discovery::context&) { return {}; }

// --- How a loader searches ------------------------------------------------------------------

// A DLL's imports, and theirs in turn, are searched from the folder of the DLL that was loaded.
inline const std::string& requester_for(const std::string& top, const std::string&) { return top; }

// The system's own DLLs and API sets fit; nothing of theirs is walked.
inline bool walk_into(const std::string& path) {
  return !is_api_set(path) && !pe_format::same_name_ignoring_case(parent_dir(path), system_folder());
}

// --- Python environments -------------------------------------------------------------------

constexpr const char* python_commands[] = {"python", "python3"};

inline std::string command_file_name(const char* command) { return std::string(command) + ".exe"; }

// A venv's python.exe is in Scripts; conda's and python.org's at the prefix itself.
inline std::string prefix_of_interpreter(const std::string& interpreter) {
  std::string dir = parent_dir(interpreter);
  return pe_format::same_name_ignoring_case(file_name_of(dir), "Scripts") ? parent_dir(dir) : dir;
}

inline std::string interpreter_in(const std::string& prefix) {
  for (const std::string& path :
       {join_path(prefix, "python.exe"), join_path(join_path(prefix, "Scripts"), "python.exe")}) {
    if (is_executable_file(path)) return path;
  }
  return {};
}

// "3.11" for the python311.dll of a prefix.
inline std::vector<std::string> python_series_in(const std::string& prefix, std::vector<std::string>& notes) {
  std::vector<std::string> series;
  for (const std::string& name : names_starting(prefix, "python3", notes)) {
    if (!ends_ignoring_case(name, ".dll") || name.size() < 12) continue;
    std::string digits = name.substr(6, name.size() - 10);  // python311.dll -> 311
    if (digits.find_first_not_of("0123456789") == std::string::npos) {
      discovery::add_unique(series, digits.substr(0, 1) + "." + digits.substr(1));
    }
  }
  return series;
}

inline std::string series_source(const std::string& series) { return discovery::words::python_dll_source(series); }

inline std::vector<std::string> site_packages_of(const discovery::context&, const std::string& prefix,
                                                 const std::string&) {
  std::string site = join_path(join_path(prefix, "Lib"), "site-packages");
  return check_path(site).kind == path_kind::absent ? std::vector<std::string>() : std::vector<std::string>{site};
}

inline std::string patchlevel_header(const std::string& prefix, const std::string&) {
  return join_path(join_path(prefix, "include"), "patchlevel.h");
}

// The user sites: %APPDATA%\Python\Python311\site-packages, each with its series.
struct user_site_folder {
  std::string path;
  std::string series;
};

inline std::vector<user_site_folder> user_sites(const discovery::context& ctx, const std::string&,
                                                std::vector<std::string>& notes) {
  std::vector<user_site_folder> sites;
  std::string appdata = ctx.env_value("APPDATA");
  if (appdata.empty()) return sites;
  std::string root = join_path(appdata, "Python");
  for (const std::string& name : names_starting(root, "Python3", notes)) {
    std::string site = join_path(join_path(root, name), "site-packages");
    if (check_path(site).kind == path_kind::folder) sites.push_back({site, name.substr(6, 1) + "." + name.substr(7)});
  }
  return sites;
}

inline std::string home_folder(const discovery::context& ctx) { return ctx.env_value("USERPROFILE"); }

// The folder of JetBrains' per-version options folders (PyCharm2023.2\options\jdk.table.xml).
inline std::string jetbrains_config_root(const discovery::context& ctx, const std::string&) {
  std::string appdata = ctx.env_value("APPDATA");
  return appdata.empty() ? appdata : join_path(appdata, "JetBrains");
}

// A path as Windows writes it: PyCharm and VS Code settings may use forward slashes.
inline std::string native_separators(std::string path) {
  for (char& c : path) c = c == '/' ? '\\' : c;
  return path;
}

// The scripts conda runs when an environment is activated (etc\conda\activate.d), for cmd.exe.
constexpr const char* activate_script_suffix = ".bat";

inline std::vector<located_folder> conda_roots(const discovery::context& ctx, const std::string& home) {
  std::vector<located_folder> found;
  for (const char* variable : {"USERPROFILE", "LOCALAPPDATA", "ProgramData"}) {
    std::string base = variable == std::string("USERPROFILE") ? home : ctx.env_value(variable);
    if (base.empty()) continue;
    for (const char* name : {"miniconda3", "anaconda3", "miniforge3", "mambaforge"}) {
      add_if_folder(found, join_path(base, name), "%USERPROFILE%, %LOCALAPPDATA%, %ProgramData%\\miniconda3, ...");
    }
  }
  return found;
}

// conda's own executable: <root>\Scripts\conda.exe (CONDA_EXE).
inline std::string conda_root_of_executable(const std::string& conda_exe) { return parent_dir(parent_dir(conda_exe)); }

// pyenv-win: %PYENV% (default %USERPROFILE%\.pyenv\pyenv-win), versions in it.
inline std::string pyenv_root(const discovery::context& ctx, const std::string& home) {
  for (const char* variable : {"PYENV_ROOT", "PYENV"}) {
    std::string root = ctx.env_value(variable);
    if (!root.empty()) return root;
  }
  return home.empty() ? std::string() : join_path(home, ".pyenv\\pyenv-win");
}

inline std::string pyenv_versions(const std::string& root) { return join_path(root, "versions"); }

// pyenv-win's shims are .bat files, which a search for python.exe never takes.
inline bool is_pyenv_shim(const std::string&, const std::string&) { return false; }

struct system_python {
  std::string prefix;
  std::string interpreter;
  std::string series;
};

// python.org's installers: %LOCALAPPDATA%\Programs\Python\Python3XY (for the user) and
// %ProgramFiles%\Python3XY (for every user).
inline std::vector<system_python> system_pythons(const discovery::context& ctx, std::vector<std::string>& notes) {
  std::vector<system_python> found;
  std::vector<std::string> roots;
  if (std::string local = ctx.env_value("LOCALAPPDATA"); !local.empty()) {
    roots.push_back(join_path(local, "Programs\\Python"));
  }
  if (std::string program_files = ctx.env_value("ProgramFiles"); !program_files.empty()) roots.push_back(program_files);
  for (const std::string& root : roots) {
    for (const std::string& name : names_starting(root, "Python3", notes)) {
      std::string prefix = join_path(root, name);
      std::string interpreter = join_path(prefix, "python.exe");
      if (check_path(interpreter).kind != path_kind::file) continue;
      found.push_back({prefix, interpreter, name.substr(6, 1) + "." + name.substr(7)});
    }
  }
  return found;
}

// What is worth knowing of the file a bare command starts.
inline std::string command_note(const std::string& path) {
  if (path.find("\\Microsoft\\WindowsApps\\") == std::string::npos) return {};
  return discovery::words::store_alias();
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
