// The words of the Python environments and what is installed in them: how a command on PATH or
// an IDE leads to one, conda's lists and variables, a variable naming a removed environment, and
// what a framework's files say or do not.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include "../machine/machine.hpp"
#include "files.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// --- Finding them ---

// How a command on PATH leads to its interpreter.
inline std::string pyenv_shim(const std::string& version, const std::string& source) {
  return "a pyenv shim: pyenv starts \"" + version + "\" (" + source + ")";
}
inline std::string not_installed(const std::string& prefix) { return ", which is not installed (no " + prefix + ")"; }

// Windows: what a python.exe in WindowsApps is.
inline std::string store_alias() {
  return "the Microsoft Store's alias: unless Python was installed from the Store, it opens the Store instead of "
         "running Python";
}

inline std::string environments_read_in_part(const std::string& list, std::size_t entries, std::size_t limit) {
  return list + " lists " + std::to_string(entries) + " environments; the first " + std::to_string(limit) +
         " were examined";
}

// `gone` entries of conda's environments.txt name no folder; `named`: the first few.
inline std::string removed_environments(const std::string& list, std::size_t gone,
                                        const std::vector<std::string>& named) {
  return list + " names " + std::to_string(gone) +
         (gone == 1 ? " folder that no longer exists: " : " folders that no longer exist: ") + joined(named) +
         (gone > named.size() ? ", ..." : "") + " (conda keeps the entries of removed environments)";
}

inline std::string conda_base(const std::string& found_by) { return found_by + " (conda's base environment)"; }
inline std::string current_folder_venv(const std::string& name) { return "the current folder's " + name; }
inline std::string ide_interpreter_for(const machine::ide_interpreter& i) {
  return i.ide + "'s interpreter for " + i.project;
}

// `detail`: what the path is, if not a file or folder.
inline machine::problem python_not_found(const std::string& given, const std::string& detail) {
  return warning("python_not_found", "--python " + given + " " + detail, given,
                 "it names neither an interpreter nor an environment's folder",
                 "give the path of a python executable or of an environment (a venv, a conda environment)");
}

// VIRTUAL_ENV or CONDA_PREFIX names `path`, `which` (does not exist, is not a folder).
inline machine::problem environment_variable_stale(const std::string& variable, const std::string& path,
                                                   const std::string& which) {
  return warning("environment_variable_stale", variable + " names " + path + ", " + which, path,
                 "a shell keeps " + variable +
                     " from an environment that was activated and then removed or moved: tools "
                     "that read it (pip's and conda's prompts, IDEs, cushim's own search) look for packages there",
                 "deactivate it (deactivate, conda deactivate) or open a new shell, then activate an environment that "
                 "exists");
}

inline std::string path_not_utf8() {
  return "its path is not valid UTF-8: JSON shows U+FFFD for each byte that is not";
}
inline std::string more_environments_than(std::size_t limit) {
  return "more than " + std::to_string(limit) +
         " Python environments: the first ones found were examined, the others not";
}

// --- What an environment's files say ---

inline std::string cfg_without_version(const std::string& cfg) { return cfg + " has no version"; }
inline std::string python_version_unknown() { return "no file here names its Python version"; }
inline std::string no_site_packages() { return "no site-packages folder: no packages are installed here"; }
inline std::string system_site_packages() {
  return "pyvenv.cfg has include-system-site-packages = true: the base interpreter's packages are seen here too";
}
inline std::string user_site_seen_by(const std::string& series) {
  return "every Python " + series + " that is not a venv sees these packages (pip install --user)";
}
// Where an environment's Python series was read when no file gave the full version: its folder
// (Linux), its python3X.dll (Windows).
inline std::string python_folder_source(const std::string& series) { return "the folder lib/python" + series; }
inline std::string python_dll_source(const std::string& series) {
  return "the name of its python" + series.substr(0, 1) + series.substr(2) + ".dll";
}

// --- Conda's variables (conda env config vars, activate.d) ---

inline std::string conda_state_not_json(const std::string& state) {
  return state + " is not JSON: the variables conda env config vars set for it are not known";
}
inline std::string conda_config_vars_source(char separator) {
  return "conda env config vars (conda-meta" + std::string(1, separator) + "state)";
}
inline std::string activating_sets(const std::string& name, const std::string& value, const std::string& source) {
  return "activating it sets " + name + "=" + value + " (" + source + ")";
}

// Activating `environment` sets `name` (from `source`) to `value`, which does not exist.
inline machine::problem conda_variable_stale(const std::string& environment, const std::string& name,
                                             const std::string& value, const std::string& source) {
  return warning("conda_variable_stale",
                 "activating " + environment + " sets " + name + " to " + value + ", which does not exist", value,
                 source + " sets it at each conda activate: build tools and loaders that read " + name +
                     " look there, in this environment only, and find nothing",
                 "conda env config vars set " + name + "=<the folder that exists> -p " + environment +
                     " (or conda env config vars unset " + name + " -p " + environment +
                     "), then conda activate it again");
}

// The active environment's `name` in this process (`own`: its value, or null) is not what
// activating it sets.
inline std::string activated_before(const std::string& name, const char* own, const std::string& source) {
  return "this process has " + (own ? name + "=" + own : "no " + name) + ": the environment was activated before " +
         source + " set it; conda activate it again";
}

// --- The IDEs' interpreters ---

inline std::string no_project_interpreter(const std::string& misc) {
  return misc +
         " names no project interpreter (no project-jdk-name in a ProjectRootManager): "
         "PyCharm asks for one";
}
inline std::string sdk_of_type(const std::string& type) { return type.empty() ? "(none)" : type; }
inline std::string names_other_sdk(const std::string& misc, const std::string& name, const std::string& type) {
  return misc + " names the SDK \"" + name + "\" of type " + sdk_of_type(type) + ", not a Python interpreter";
}
inline std::string lists_other_sdk(const std::string& table, const std::string& name, const std::string& type) {
  return table + " lists \"" + name + "\" as an SDK of type " + sdk_of_type(type) + ", not a Python interpreter";
}
inline std::string jdk_table_of(const std::string& version) { return "the jdk.table.xml of " + version; }

// No table of `read` (the PyCharm versions whose table was read; none: no options folder under
// `root`) lists the interpreter misc.xml names.
inline std::string interpreter_not_listed(const std::string& misc, const std::string& name, const std::string& root,
                                          const std::vector<std::string>& read) {
  return misc + " names the interpreter \"" + name + "\", which " +
         (read.empty() ? "no PyCharm options folder (" + (root.empty() ? std::string("JetBrains") : root) +
                             "/PyCharm*/options/jdk.table.xml) lists"
                       : jdk_table_of(joined(read)) + " does not list as a Python interpreter") +
         ": PyCharm shows it as invalid";
}
inline std::string interpreter_removed(const std::string& misc, const std::string& name,
                                       const machine::ide_interpreter& found) {
  return misc + " names \"" + name + "\", whose interpreter " + found.path + " (" + found.how +
         ") does not exist: the environment was removed or moved, and PyCharm shows it as invalid";
}
inline std::string settings_not_json(const std::string& settings) {
  return settings + " is not JSON (with comments): its interpreter setting is not known";
}
inline std::string no_interpreter_here(const std::string& settings, const std::string& value) {
  return settings + "'s python.defaultInterpreterPath names " + value + ", which is no interpreter here";
}
inline std::string project_not_a_folder(const std::string& project) {
  return "--project " + project + " is not a folder: not read";
}

// --- What a framework's files say ---

// A distribution's METADATA that cannot be read (`exists`: it is there) or has no Version;
// `folder_version`: the version its folder's name gives, or empty.
inline std::string from_folder_name(const std::string& folder_version) {
  return folder_version.empty() ? std::string() : ": the version is the folder's name, " + folder_version;
}
inline std::string unreadable(const std::string& path, bool exists, const std::string& error) {
  return exists ? cannot_be_read(path, error) : path + " is missing";
}
inline std::string metadata_unreadable(const std::string& path, bool exists, const std::string& error,
                                       const std::string& folder_version) {
  return unreadable(path, exists, error) + from_folder_name(folder_version);
}
inline std::string metadata_without_version(const std::string& path, const std::string& folder_version) {
  return path + " has no Version" + from_folder_name(folder_version);
}
inline std::string metadata_source(const std::string& folder) { return "its METADATA (" + folder + ")"; }

// The generated file that says how `framework` was built.
inline std::string build_unknown(const std::string& path, bool exists, const std::string& error,
                                 const std::string& framework) {
  return unreadable(path, exists, error) + ": how " + framework + " was built is not known";
}
inline std::string not_generated_file(const std::string& path, const std::string& key, const std::string& framework) {
  return path + " has no " + key + ": it is not " + framework + "'s generated file, or it is damaged";
}
inline std::string no_dist_info(const std::string& package) {
  return package + " has no .dist-info beside it: not installed by pip, or its record was removed";
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
