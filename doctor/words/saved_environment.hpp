// The words of Windows' saved variables (the registry's Environment keys, which setx and the
// Environment Variables dialog write) against this process's: what a program started before a
// change lacks, a PATH setx cut, values no program can use as they are.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include "../machine/machine.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// Where a folder was found only in the saved PATH (or `variable`).
inline std::string in_registry_only(const std::string& variable) {
  return variable + " in the registry (not in this process)";
}
inline std::string path_in_registry(const std::string& scope) { return "PATH in the registry (" + scope + ")"; }

// --- Reading the registry (`where`: "HKCU\\Environment\\CUDA_PATH") ---

inline std::string not_a_string_value(const std::string& where, const std::string& type) {
  return where + " is a " + type +
         " value, not a string (REG_SZ or REG_EXPAND_SZ): it names no folder, and the doctor leaves "
         "it out";
}
inline std::string too_long_value(const std::string& where, unsigned long bytes) {
  return where + " is " + std::to_string(bytes) + " bytes long, more than any variable: left out";
}

// --- Values no program can use as they are ---

inline std::string empty_path(const std::string& where) { return where + " is empty: it adds nothing to PATH"; }
inline std::string empty_variable(const std::string& where, const std::string& name) {
  return where + " is empty: programs get an empty " + name;
}
// `unknown`: the %NAME%s set nowhere; in PATH (`entries`) or a variable's own value.
inline std::string unexpanded(const std::string& where, const std::vector<std::string>& unknown, bool entries) {
  return where + " names " + joined(unknown) +
         (entries ? ", set nowhere: Windows leaves such a %NAME% as written, and the entry names no folder"
                  : ", set nowhere: Windows leaves it as written, and it names no folder");
}
inline std::string not_expandable(const std::string& where) {
  return where +
         " is a REG_SZ value with %...% in it: Windows expands %NAME% only in REG_EXPAND_SZ "
         "values, so programs get those entries as written, naming no folder";
}

// setx cut the saved PATH at `limit` characters; `last`: its last entry, `cut`: that one is cut too.
inline machine::problem path_cut_by_setx(const std::string& where, std::size_t limit, const std::string& last,
                                         bool cut) {
  return warning("path_cut_by_setx",
                 where + " is exactly " + std::to_string(limit) + " characters long: setx cut it there" +
                     (cut ? ", in the middle of its last entry " + last : std::string()),
                 last,
                 "setx writes at most 1024 characters and drops the rest (\"WARNING: The data being saved is truncated "
                 "to 1024 characters.\"): every entry after the cut is gone from PATH for each program started since",
                 "set PATH again in System Properties > Environment Variables (which has no such limit), adding back "
                 "the entries lost after the cut (such as the CUDA and cuDNN bin folders)");
}

// --- What a program started before a change lacks ---

inline std::string restart_fix() {
  return "close every window of the program you start Python or your build from (PyCharm, VS Code, the Anaconda "
         "Prompt or the terminal) and start it again, so that it reads the saved variables anew; signing out and in "
         "again restarts all of them";
}

// `missing`: what they lack, "lack it: ...", "have no CUDA_PATH: ...".
inline std::string started_before_why(const std::string& missing) {
  return "Windows gives a program the variables of the moment it started: setx and the Environment Variables "
         "dialog change the saved ones, which only programs started afterwards get. This process, and a PyCharm, "
         "VS Code, Anaconda Prompt or terminal started before the change (with the Python it runs), " +
         missing;
}

// The saved PATH has `entry`, which holds `holds` ("cudnn64_8.dll, ..."); this process's lacks it.
inline machine::problem path_entry_not_in_process(const std::string& where, const std::string& entry,
                                                  const std::string& holds) {
  return warning(
      "variable_not_in_process", where + " has " + entry + ", which this process's PATH lacks", entry,
      started_before_why("lack it: what is there (" + holds + ") is not found by name, as if it were not installed"),
      restart_fix());
}

// `name` is saved (in `scope`) as `value`; this process has none.
inline machine::problem variable_not_in_process(const std::string& name, const std::string& scope,
                                                const std::string& value) {
  return warning("variable_not_in_process",
                 name + " is set in the registry (" + scope + ") to " + value + ", and this process has no " + name,
                 value,
                 started_before_why("have no " + name +
                                    ": build tools (CMake's FindCUDAToolkit, setup.py builds) and loaders "
                                    "that read it (torch's for CUDA_PATH_V<x>_<y>) do not find " +
                                    value),
                 restart_fix());
}

inline std::string changed_since(const std::string& name, const std::string& own, const std::string& value,
                                 const std::string& scope) {
  return name + " is " + own + " in this process and " + value + " in the registry (" + scope +
         "): it was changed after this process started, or what started it set its own";
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
