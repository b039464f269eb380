// The interpreter an IDE runs a project's code with, from the IDE's own files, for the current
// folder and each --project: PyCharm's project interpreter (.idea/misc.xml names it in its
// ProjectRootManager, project-jdk-name; the interpreter table of each PyCharm version,
// <JetBrains>/PyCharm<version>/options/jdk.table.xml, gives its homePath) and VS Code's
// python.defaultInterpreterPath (.vscode/settings.json; what the Python extension remembers of a
// choice made in its picker is in its own storage, which is not read). Each interpreter found is an
// environment candidate; checks.hpp says when it is the wrong one. A file that is garbage, too
// large, or names what is not there or not Python, is a note.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "context.hpp"
#include "environment_candidates.hpp"
#include "json_values.hpp"
#include "layout.hpp"
#include "text_values.hpp"
#include "xml_tags.hpp"
#include "../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t ide_table_limit = 1024 * 1024;  // one PyCharm's jdk.table.xml
constexpr const char* python_sdk = "Python SDK";

struct pycharm_sdk {
  std::string type;
  std::string home;
};

// The interpreter named `name` in a jdk.table.xml; false when the table lists none of that name.
inline bool sdk_in_table(std::string_view text, const std::string& name, pycharm_sdk& out) {
  bool in_jdk = false;
  std::string current_name;
  pycharm_sdk current;
  for (const xml_tag& t : xml_tags(text)) {
    if (t.name == "jdk" && !t.end && !t.self_closed) {
      in_jdk = true, current_name.clear(), current = {};
    } else if (t.name == "jdk" && t.end) {
      if (in_jdk && current_name == name) return out = current, true;
      in_jdk = false;
    } else if (in_jdk && !t.end && t.name == "name" && current_name.empty()) {
      current_name = t.attribute("value");
    } else if (in_jdk && !t.end && t.name == "type") {
      current.type = t.attribute("value");
    } else if (in_jdk && !t.end && t.name == "homePath") {
      current.home = t.attribute("value");
    }
  }
  return false;
}

// PyCharm's project interpreter of `project`, when it has a .idea/misc.xml.
inline void find_pycharm_interpreter(const context& ctx, const std::string& project, const std::string& home,
                                     machine::findings& f) {
  std::string misc = join_path(join_path(project, ".idea"), "misc.xml");
  text_file file = read_text(misc);
  if (!file.exists()) return;
  if (!file.ok()) return f.notes.push_back(words::cannot_be_read(misc, file.error));
  if (file.truncated()) f.notes.push_back(file.truncation_note());
  std::string name, type;
  for (const xml_tag& t : xml_tags(file.text)) {
    if (!t.end && t.name == "component" && t.attribute("name") == "ProjectRootManager") {
      name = t.attribute("project-jdk-name"), type = t.attribute("project-jdk-type");
    }
  }
  if (name.empty()) {
    return f.notes.push_back(words::no_project_interpreter(misc));
  }
  if (type != python_sdk) {
    return f.notes.push_back(words::names_other_sdk(misc, name, type));
  }
  std::string root = platform::jetbrains_config_root(ctx, home);
  std::vector<std::string> versions =
      root.empty() ? std::vector<std::string>() : names_starting(root, "PyCharm", f.notes);
  std::reverse(versions.begin(), versions.end());  // the newest version first
  machine::ide_interpreter found{"PyCharm", project, misc, name, {}, {}, {}};
  std::vector<std::string> read;
  for (const std::string& version : versions) {
    std::string table = join_path(join_path(join_path(root, version), "options"), "jdk.table.xml");
    text_file t = read_text(table, ide_table_limit);
    if (!t.ok()) {
      if (t.exists()) f.notes.push_back(words::cannot_be_read(table, t.error));
      continue;
    }
    if (t.truncated()) f.notes.push_back(t.truncation_note());
    read.push_back(version);
    pycharm_sdk sdk;
    if (!found.path.empty() || !sdk_in_table(t.text, name, sdk)) continue;
    if (sdk.type != python_sdk) {
      f.notes.push_back(words::lists_other_sdk(table, name, sdk.type));
      continue;
    }
    std::string path = sdk.home;
    if (path.compare(0, 11, "$USER_HOME$") == 0) path = home + path.substr(11);
    found.path = platform::native_separators(path);
    found.how = words::jdk_table_of(version);
  }
  if (found.path.empty()) {
    return f.notes.push_back(words::interpreter_not_listed(misc, name, root, read));
  }
  if (platform::check_path(found.path).kind != platform::path_kind::file) {
    return f.notes.push_back(words::interpreter_removed(misc, name, found));
  }
  f.ide_interpreters.push_back(found);
}

// VS Code's python.defaultInterpreterPath of `project`, when it has a .vscode/settings.json.
inline void find_vscode_interpreter(const std::string& project, machine::findings& f) {
  std::string settings = join_path(join_path(project, ".vscode"), "settings.json");
  text_file file = read_text(settings);
  if (!file.exists()) return;
  if (!file.ok()) return f.notes.push_back(words::cannot_be_read(settings, file.error));
  json_value v;
  if (file.truncated() || !parse_json(file.text, v) || v.type != json_value::kind::object) {
    return f.notes.push_back(words::settings_not_json(settings));
  }
  std::string path = v.string_member("python.defaultInterpreterPath");
  if (path.empty()) return;
  for (std::size_t at = path.find("${workspaceFolder}"); at != std::string::npos;
       at = path.find("${workspaceFolder}")) {
    path.replace(at, 18, project);
  }
  path = platform::native_separators(path);
  if (!platform::is_absolute_path(path)) path = join_path(project, path);
  path = lexically_normal(path);
  if (platform::check_path(path).kind == platform::path_kind::folder) path = platform::interpreter_in(path);
  if (path.empty() || platform::check_path(path).kind != platform::path_kind::file) {
    return f.notes.push_back(words::no_interpreter_here(settings, v.string_member("python.defaultInterpreterPath")));
  }
  f.ide_interpreters.push_back({"VS Code", project, settings, {}, path, {}, "python.defaultInterpreterPath"});
}

// The interpreters of the current folder's project and each --project, each an environment
// candidate.
inline void find_ide_interpreters(const context& ctx, machine::findings& f, std::vector<environment_candidate>& found) {
  std::vector<std::string> projects;
  if (std::string cwd = ctx.current_folder(); !cwd.empty()) projects.push_back(cwd);
  for (const std::string& p : ctx.opts.projects) {
    if (platform::check_path(p).kind == platform::path_kind::folder) {
      add_unique(projects, p);
    } else {
      f.notes.push_back(words::project_not_a_folder(p));
    }
  }
  std::string home = platform::home_folder(ctx);
  for (const std::string& project : projects) {
    find_pycharm_interpreter(ctx, project, home, f);
    find_vscode_interpreter(project, f);
  }
  for (const machine::ide_interpreter& i : f.ide_interpreters) {
    found.push_back({prefix_for_interpreter(i.path), "", words::ide_interpreter_for(i), i.path});
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
