// The words of programs built with cushim and one release's headers (stacks/programs.hpp): where
// the headers are, why cushim's search passes over a copy, and what to change when it loads none.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/descriptor.hpp>
#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/search/path_list.hpp>
#include "../machine/machine.hpp"
#include "../machine/text_values.hpp"
#include "cudnn.hpp"
#include "inventory.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// Who installed a copy of the headers (inventory.hpp has the toolkit's and the environment's).
inline std::string the_wheel(const machine::wheel& w, const std::string& environment) {
  return "the wheel " + w.name + " " + w.version + " in " + environment;
}
inline std::string own_headers() { return "cushim-doctor's own headers"; }
inline std::string own_build() { return "cushim-doctor's own build"; }

// "programs built with cushim and cuDNN 9.19.0's headers" (`release`: "cuDNN 9.19.0").
inline std::string programs_built_with(const std::string& release) {
  return "programs built with cushim and " + release + "'s headers";
}

// --- Why the search passes over a copy ---

inline std::string other_major_than(const std::string& headers) {
  return "another major than the headers (" + headers + ")";
}
inline std::string older_than(const std::string& headers) { return "older than the headers (" + headers + ")"; }
inline std::string import_not_found(const machine::resolved_import& i) {
  return i.needed_by + (i.needed_by.find(',') == std::string::npos ? " needs " : " need ") + i.name +
         ", which is not found";
}

// "/usr/lib/libcudnn.so.9 (cuDNN 9.1.0): older than the headers (9.19.0)".
inline std::string refused_copy(const std::string& path, const library_descriptor& d, const std::string& version,
                                const std::string& why) {
  return path + " (" + (version.empty() ? std::string(d.display_name) : d.display_name + (" " + version)) + "): " + why;
}
inline std::string passes_over(const std::vector<std::string>& refused) {
  return "it passes over " + joined(refused) + " first";
}

// --- What to change ---

// How to upgrade the package that installed `c` to `release`, in its manager's words; empty when
// no package manager did.
inline std::string upgrade(const machine::library_copy& c, const std::string& release) {
  std::string to = leading_parts(release, 2);
  if (c.installed_by == "package") {
    return "upgrade the package " + c.package + " (" + leading_parts(c.version, 3) + ") to " + to +
           " or newer (apt-get install --only-upgrade " + c.package + ")";
  }
  if (c.installed_by == "pip") return "pip install --upgrade \"" + c.package + ">=" + to + "\" in its environment";
  if (c.installed_by == "conda") return "conda update " + c.package + " in its environment";
  return {};
}

// `usable` serves these programs (`release`: "cuDNN 9.19.0"): the setting that reaches it.
inline std::string search_path_to(const machine::library_copy& usable, const std::string& release) {
  return "set CUSHIM_SEARCH_PATH=" + parent_dir(usable.path) + " (or options.search_dirs): it holds " + release +
         ", of " + usable.owner;
}

// Another fix after a first one.
inline std::string or_else(const std::string& first, const std::string& other) {
  return first.empty() ? other : other.empty() ? first : first + "; or " + other;
}

// The copy refused in `folder` lacks the import `name`: what gives it, before any other fix.
inline std::string provide_import(const std::string& name, const std::string& folder) {
  std::string fix = known_dependency_fix(name);
  return fix.empty() ? "put " + name + " into " + folder + ", or its folder on PATH" : fix;
}

// `release`: "cuDNN 9.19.0".
inline std::string install_release(const std::string& release) {
  return "install " + release + " or a newer minor of the same major";
}

// --- When they load none ---

// The override variable names `value`, where these programs find nothing; `usable`: a copy that
// serves them, or empty; `file`: the file they look for.
inline machine::problem cushim_program_override_fails(const std::string& programs, const library_descriptor& d,
                                                      const std::string& value, const std::string& usable,
                                                      const std::string& file) {
  std::string variable = d.override_variable;
  return warning("cushim_program_override_fails",
                 programs + " find no " + d.display_name + " where " + variable + " points (" + value + ")", value,
                 variable + " is authoritative: cushim looks nowhere else, and " + d.in_sentence +
                     " is unavailable to every such program",
                 usable.empty() ? "set " + variable + " to a " + file + ", or unset it"
                                : "set " + variable + "=" + usable + ", or unset it");
}

// A plain environment's search meets no copy of `major`; `setting`: search_path_to a copy there is.
inline std::string find_none_but(const std::string& programs, const library_descriptor& d, int major,
                                 const std::string& setting) {
  return "in a plain environment " + programs + " find no " + d.display_name + " " + std::to_string(major) + ": " +
         setting;
}

// No copy of `major` at least as new as the headers (`header`, of `release`) is on the machine.
inline machine::problem cushim_program_no_library(const std::string& programs, const library_descriptor& d, int major,
                                                  const std::string& header, const std::string& release) {
  return warning("cushim_program_no_library",
                 programs + " find no " + d.display_name + " " + std::to_string(major) + " on this machine", header,
                 "no copy on this machine is of that major and at least that release", install_release(release));
}

// They refuse `first` (found by `rule`) and every copy after it (`refused`: refused_copy each).
inline machine::problem cushim_program_refuses(const std::string& programs, const library_descriptor& d,
                                               const std::string& first, const std::string& rule,
                                               const std::vector<std::string>& refused, const std::string& fix) {
  return warning("cushim_program_refuses",
                 programs + " refuse " + first + " (" + rule + "), the first " + d.display_name +
                     " their search meets, and load none",
                 first,
                 "in a plain environment cushim's search meets " + joined(refused) +
                     "; the program starts, but its calls into " + d.in_sentence + " fail (" +
                     (d.id == library::cudnn ? "CUDNN_STATUS_NOT_INITIALIZED" : "cudaErrorSharedObjectInitFailed") +
                     ") and cushim::explain() says why",
                 fix);
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
