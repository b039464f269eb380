// The ordered list of places to look for a library (docs/search-order.md, "Search order (Linux)"): the rules every
// platform shares, then the platform's own (search_rules.hpp of posix/ or windows/); a library the
// system itself installs (the driver) only where it does (driver_files.hpp); and before them the
// explicit override. Builds paths only; the loader tries them, after the copy already loaded.
#pragma once

#include <string>
#include <vector>

#include "../types/status_types.hpp"
#include "../platform/os.hpp"
#include "search_list.hpp"
#include CUSHIM_OS_DRIVER_FILES
#include CUSHIM_OS_FILES
#include CUSHIM_OS_SEARCH_RULES
#include CUSHIM_OS_SYSTEM

namespace cushim {
namespace detail {
namespace {

// The explicit file or folder from options.files or CUSHIM_*_PATH, if one is given.
inline bool override_candidate(const library_descriptor& d, const options& opts, candidate& c) {
  if (!d.override_variable) return false;
  std::string value = opts.files[d.id];
  std::string rule = std::string("options.files[") + d.key + "]";
  if (value.empty() && opts.use_environment) {
    const char* env = platform::get_environment(d.override_variable);
    if (!env || !*env) return false;  // set but empty counts as unset
    value = env;
    rule = d.override_variable;
  }
  if (value.empty()) return false;
  candidate_list list(compiled_file_name(d));
  if (is_absolute_path(value) && !platform::is_folder(value)) {
    list.add_file(rule, value);
  } else {
    list.add_dir(rule, value);
  }
  c = list.take().front();
  return true;
}

inline std::vector<candidate> search_candidates(const search_target& t, const search_inputs& in) {
  if (t.d->system_only) return platform::system_install_candidates(t.file_name.c_str());
  candidate_list list(t.file_name);
  add_leading_rules(list, in);
  platform::add_install_rules(list, t, in);
  platform::add_system_rules(list, t);
  return list.take();
}

inline std::vector<candidate> search_candidates(const library_descriptor& d, const search_inputs& in) {
  return search_candidates(target_of(d), in);
}

}  // namespace
}  // namespace detail
}  // namespace cushim
