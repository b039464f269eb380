// The variables activating a conda environment sets, from its own files: those `conda env config
// vars set` keeps in conda-meta/state ({"env_vars": {"CUDA_PATH": "..."}}), and those its
// etc/conda/activate.d scripts set (`set NAME=value` in a .bat, `export NAME=value` in a .sh).
// The ones the doctor compares (PATH, CUDA_*, CUDNN_*, LD_LIBRARY_PATH) are noted; one that names a
// folder that does not exist is a problem of the environment, and an activated environment whose
// process has another value was activated before the variable was set.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/files/pe.hpp>
#include "context.hpp"
#include "json_values.hpp"
#include "layout.hpp"
#include "saved_environment.hpp"
#include "text_values.hpp"
#include "../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

struct conda_variable {
  std::string name;
  std::string value;
  std::string source;  // "conda env config vars (conda-meta/state)", "etc/conda/activate.d/cudnn.bat"
};

// `set NAME=value`, `set "NAME=value"`, `@set ...` (cmd.exe) and `export NAME=value` (sh), quotes
// removed; false for any other line.
inline bool activate_assignment(std::string_view line, std::string& name, std::string& value) {
  line = trimmed(line);
  if (!line.empty() && line.front() == '@') line.remove_prefix(1);
  bool set = line.size() > 4 && (line.compare(0, 4, "set ") == 0 || line.compare(0, 4, "SET ") == 0);
  bool exported = line.size() > 7 && line.compare(0, 7, "export ") == 0;
  if (!set && !exported) return false;
  line = trimmed(line.substr(set ? 4 : 7));
  if (line.size() >= 2 && line.front() == '"' && line.back() == '"') line = line.substr(1, line.size() - 2);
  std::size_t equals = line.find('=');
  if (equals == std::string_view::npos || equals == 0) return false;
  name = std::string(trimmed(line.substr(0, equals)));
  std::string_view rest = trimmed(line.substr(equals + 1));
  if (rest.size() >= 2 && (rest.front() == '"' || rest.front() == '\'') && rest.back() == rest.front()) {
    rest = rest.substr(1, rest.size() - 2);
  }
  value = std::string(rest);
  return true;
}

inline std::vector<conda_variable> conda_variables(const machine::environment& e, std::vector<std::string>& notes) {
  std::vector<conda_variable> found;
  text_file state = read_text(join_path(join_path(e.path, "conda-meta"), "state"));
  if (state.ok()) {
    json_value v;
    if (!parse_json(state.text, v) || v.type != json_value::kind::object) {
      notes.push_back(words::conda_state_not_json(state.path));
    } else if (const json_value* vars = v.member("env_vars")) {
      for (const auto& m : vars->members) {
        if (m.second.type == json_value::kind::string) {
          found.push_back({m.first, m.second.text, words::conda_config_vars_source(platform::folder_separator)});
        }
      }
    }
  } else if (state.exists()) {
    notes.push_back(words::cannot_be_read(state.path, state.error));
  }
  std::string scripts = join_path(join_path(join_path(e.path, "etc"), "conda"), "activate.d");
  for (const std::string& name : names_starting(scripts, "", notes)) {
    std::string suffix = platform::activate_script_suffix;
    if (name.size() <= suffix.size() ||
        !pe_format::same_name_ignoring_case(name.substr(name.size() - suffix.size()), suffix)) {
      continue;
    }
    text_file script = read_text(join_path(scripts, name));
    if (!script.ok()) continue;
    for_each_line(script.text, [&](std::string_view line) {
      std::string variable, value;
      if (activate_assignment(line, variable, value)) found.push_back({variable, value, script.path});
    });
  }
  return found;
}

// A conda variable's value with the environment's own folder put in for CONDA_PREFIX.
inline std::string with_prefix(std::string value, const std::string& prefix) {
  for (const char* form : {"%CONDA_PREFIX%", "${CONDA_PREFIX}", "$CONDA_PREFIX"}) {
    for (std::size_t at = value.find(form); at != std::string::npos; at = value.find(form, at + prefix.size())) {
      value.replace(at, std::char_traits<char>::length(form), prefix);
    }
  }
  return value;
}

inline void check_conda_variables(const context& ctx, machine::environment& e) {
  if (platform::check_path(join_path(e.path, "conda-meta")).kind != platform::path_kind::folder) return;
  bool active = !ctx.env_value("CONDA_PREFIX").empty() && ctx.env_value("CONDA_PREFIX") == e.path;
  for (const conda_variable& v : conda_variables(e, e.notes)) {
    bool list = v.name == "PATH" || v.name == "Path" || v.name == "LD_LIBRARY_PATH";
    if (!list && !compared_variable(v.name)) continue;
    std::string value = with_prefix(v.value, e.path);
    e.notes.push_back(words::activating_sets(v.name, v.value, v.source));
    if (!list && platform::is_absolute_path(value) && platform::check_path(value).kind == platform::path_kind::absent) {
      e.problems.push_back(words::conda_variable_stale(e.path, v.name, value, v.source));
    }
    const char* own = ctx.env(v.name);
    if (active && !list && (!own || std::string(own) != value)) {
      e.notes.push_back(words::activated_before(v.name, own, v.source));
    }
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
