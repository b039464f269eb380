// The Python environments, found without running Python: the --python ones, VIRTUAL_ENV,
// CONDA_PREFIX, what python and python3 on PATH start (a pyenv shim resolved from pyenv's own
// files), the interpreters the IDEs run the projects with, a .venv in the current folder, conda's
// installations and its environments.txt, pyenv's versions, the system's interpreters and the
// user sites. Each with its Python version from its own files and the folders its packages are in.
#pragma once

#include <string>
#include <vector>

#include "context.hpp"
#include "environment_candidates.hpp"
#include "ide_interpreters.hpp"
#include "layout.hpp"
#include "text_values.hpp"
#include "../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// pyenv's choice, from its own files as `pyenv version-name` reads them: PYENV_VERSION, a
// .python-version in the current folder or one above it, then <root>/version; "system" when none.
inline std::string pyenv_version_name(const context& ctx, const std::string& root, std::string& source) {
  auto first_of = [](const std::string& text) {
    std::string name;
    for_each_line(text, [&](std::string_view line) {
      std::string_view t = trimmed(line);
      if (name.empty() && !t.empty() && t[0] != '#') name = std::string(t.substr(0, t.find_first_of(" \t:")));
    });
    return name;
  };
  std::string env = ctx.env_value("PYENV_VERSION");
  if (!env.empty()) {
    source = "PYENV_VERSION";
    return first_of(env);
  }
  std::string dir = ctx.current_folder();
  for (int depth = 0; !dir.empty() && depth < 64; ++depth) {
    text_file f = read_text(join_path(dir, ".python-version"));
    if (f.ok() && !first_of(f.text).empty()) {
      source = f.path;
      return first_of(f.text);
    }
    std::string up = parent_dir(dir);
    if (up == dir) break;
    dir = up;
  }
  text_file global = read_text(join_path(root, "version"));
  source = global.path;
  if (global.ok() && !first_of(global.text).empty()) return first_of(global.text);
  return "system";
}

// Where each bare command name on PATH leads: the file, and the environment it starts.
inline void resolve_commands(const context& ctx, const std::string& home, machine::findings& f,
                             std::vector<environment_candidate>& found) {
  std::vector<std::string> dirs = absolute_entries(ctx, "PATH", f.notes);
  std::string pyenv = platform::pyenv_root(ctx, home);
  for (const char* command : platform::python_commands) {
    machine::command_on_path c;
    c.command = command;
    std::size_t index = 0;
    for (; index < dirs.size(); ++index) {
      std::string file = join_path(dirs[index], platform::command_file_name(command));
      if (platform::is_executable_file(file)) {
        c.path = file;
        break;
      }
    }
    if (c.path.empty()) {
      f.on_path.push_back(c);
      continue;
    }
    c.how = platform::command_note(c.path);
    std::string interpreter = c.path;
    if (platform::is_pyenv_shim(c.path, pyenv)) {
      std::string source;
      std::string version = pyenv_version_name(ctx, pyenv, source);
      c.how = words::pyenv_shim(version, source);
      if (version == "system") {  // the next one on PATH, past pyenv's shims
        interpreter.clear();
        for (std::size_t i = index + 1; i < dirs.size() && interpreter.empty(); ++i) {
          std::string file = join_path(dirs[i], platform::command_file_name(command));
          if (platform::is_executable_file(file)) interpreter = file;
        }
      } else {
        std::string prefix = join_path(platform::pyenv_versions(pyenv), version);
        interpreter = platform::interpreter_in(prefix);
        if (interpreter.empty()) {
          c.how += words::not_installed(prefix);
          f.on_path.push_back(c);
          continue;
        }
      }
    }
    if (!interpreter.empty()) {
      c.environment = prefix_for_interpreter(interpreter);
      found.push_back({c.environment, "", std::string(command) + " on PATH", interpreter});
    }
    f.on_path.push_back(c);
  }
}

// ~/.conda/environments.txt: one prefix a line; bounded in size and in entries, each one
// that names nothing noted (grouped past the first few).
inline void read_environments_txt(const std::string& home, std::vector<environment_candidate>& found,
                                  std::vector<std::string>& notes) {
  if (home.empty()) return;
  text_file list = read_text(join_path(home, ".conda/environments.txt"), list_file_limit);
  if (!list.exists()) return;
  if (!list.ok()) return notes.push_back(words::cannot_be_read(list.path, list.error));
  if (list.truncated()) notes.push_back(list.truncation_note());
  std::size_t entries = 0, gone = 0;
  std::vector<std::string> gone_named;
  for_each_line(list.text, [&](std::string_view line) {
    std::string entry(trimmed(line));
    if (entry.empty() || entry[0] == '#') return;
    if (++entries > listed_entries_limit) return;
    if (platform::check_path(entry).kind == platform::path_kind::absent) {
      if (++gone <= 3) gone_named.push_back(entry);
      return;
    }
    found.push_back({entry, "conda", "~/.conda/environments.txt", ""});
  });
  if (entries > listed_entries_limit) {
    notes.push_back(words::environments_read_in_part(list.path, entries, listed_entries_limit));
  }
  if (gone > 0) {
    notes.push_back(words::removed_environments(list.path, gone, gone_named));
  }
}

inline void add_conda_root(const std::string& root, const std::string& found_by,
                           std::vector<environment_candidate>& found, std::vector<std::string>& notes) {
  found.push_back({root, "conda", words::conda_base(found_by), ""});
  std::string envs = join_path(root, "envs");
  for (const std::string& name : names_starting(envs, "", notes)) {
    if (platform::check_path(join_path(envs, name)).kind == platform::path_kind::folder) {
      found.push_back({join_path(envs, name), "conda", found_by + "/envs", ""});
    } else if (platform::check_path(join_path(envs, name)).kind == platform::path_kind::loop) {
      notes.push_back(words::is_link_loop(join_path(envs, name)));
    }
  }
}

// Every place an environment may be, in the order they are reported.
inline std::vector<environment_candidate> environment_candidates(const context& ctx, machine::findings& f) {
  std::vector<environment_candidate> found;
  std::string home = platform::home_folder(ctx);
  for (const std::string& given : ctx.opts.pythons) {
    platform::path_check c = platform::check_path(given);
    if (c.kind == platform::path_kind::folder) {
      found.push_back({given, "", "--python", ""});
    } else if (c.kind == platform::path_kind::file) {
      found.push_back({prefix_for_interpreter(given), "", "--python", given});
    } else {
      f.problems.push_back(words::python_not_found(given, c.detail));
    }
  }
  if (std::string venv = ctx.env_value("VIRTUAL_ENV"); !venv.empty())
    found.push_back({venv, "venv", "VIRTUAL_ENV", ""});
  if (std::string conda = ctx.env_value("CONDA_PREFIX"); !conda.empty()) {
    found.push_back({conda, "conda", "CONDA_PREFIX", ""});
  }
  resolve_commands(ctx, home, f, found);
  find_ide_interpreters(ctx, f, found);
  if (std::string cwd = ctx.current_folder(); !cwd.empty()) {
    for (const char* name : {".venv", "venv"}) {
      std::string dir = join_path(cwd, name);
      if (platform::check_path(join_path(dir, "pyvenv.cfg")).kind == platform::path_kind::file) {
        found.push_back({dir, "venv", words::current_folder_venv(name), ""});
      }
    }
  }
  if (std::string exe = ctx.env_value("CONDA_EXE"); !exe.empty()) {
    add_conda_root(platform::conda_root_of_executable(exe), "CONDA_EXE", found, f.notes);
  }
  for (const located_folder& root : platform::conda_roots(ctx, home)) {
    add_conda_root(root.path, root.found_by, found, f.notes);
  }
  read_environments_txt(home, found, f.notes);
  std::string pyenv = platform::pyenv_root(ctx, home);
  if (!pyenv.empty()) {
    std::string versions = platform::pyenv_versions(pyenv);
    for (const std::string& name : names_starting(versions, "", f.notes)) {
      found.push_back({join_path(versions, name), "pyenv", "pyenv versions", ""});
    }
  }
  for (const platform::system_python& p : platform::system_pythons(ctx, f.notes)) {
    found.push_back({p.prefix, "system", "the system's " + file_name_of(p.interpreter), p.interpreter});
  }
  return found;
}

// The Python version of an environment, from its own files (`cfg`: its pyvenv.cfg, as read).
inline void read_python_version(const std::string& prefix, const std::vector<std::string>& series, const text_file& cfg,
                                machine::environment& e) {
  if (cfg.ok()) {
    for (const char* key : {"version", "version_info"}) {
      std::string v = config_value(cfg.text, key);
      std::vector<int> parts;
      if (version_numbers(v, parts)) {
        e.python_version = leading_parts(v, 3);
        e.version_source = std::string("pyvenv.cfg") + (key == std::string("version") ? "" : ", version_info");
        return;
      }
    }
    e.notes.push_back(words::cfg_without_version(cfg.path));
  }
  for (const std::string& s : series) {
    text_file header = read_text(platform::patchlevel_header(prefix, s));
    if (!header.ok()) continue;
    std::string v = define_value(header.text, "PY_VERSION");
    if (!v.empty()) {
      e.python_version = v;
      e.version_source = header.path.substr(prefix.size() + 1);
      return;
    }
  }
  std::vector<std::string> ignored;
  for (const std::string& name : names_starting(join_path(prefix, "conda-meta"), "python-", ignored)) {
    std::vector<int> parts;
    if (!version_numbers(name.substr(7), parts)) continue;  // python-dateutil-...
    e.python_version = std::to_string(parts[0]) + "." + std::to_string(parts[1]) +
                       (parts.size() > 2 ? "." + std::to_string(parts[2]) : "");
    e.version_source = "conda-meta/" + name;
    return;
  }
  if (!series.empty()) {
    e.python_version = series.front();
    e.version_source = platform::series_source(series.front());
  }
}

// The kind of environment a folder is, from its own files first.
inline std::string environment_kind(const environment_candidate& c) {
  if (platform::check_path(join_path(c.path, "pyvenv.cfg")).kind == platform::path_kind::file) return "venv";
  if (platform::check_path(join_path(c.path, "conda-meta")).kind == platform::path_kind::folder) return "conda";
  return c.kind.empty() ? "interpreter" : c.kind;
}

// Every environment, once each (two routes to one folder are one environment), with its Python
// and the folders its packages are in.
inline void find_environments(const context& ctx, machine::findings& f) {
  std::vector<environment_candidate> found = environment_candidates(ctx, f);
  std::vector<platform::file_identity> ids;
  bool over = false;
  for (const environment_candidate& c : found) {
    platform::path_check pc = platform::check_path(c.path);
    if (pc.kind != platform::path_kind::folder) {
      if (c.found_by == "VIRTUAL_ENV" || c.found_by == "CONDA_PREFIX") {
        f.problems.push_back(words::environment_variable_stale(c.found_by, c.path,
                                                               pc.kind == platform::path_kind::absent
                                                                   ? words::which_does_not_exist()
                                                                   : words::which_is_not_a_folder(pc.detail)));
      } else if (pc.kind != platform::path_kind::absent) {
        add_unique(f.notes, words::not_examined(c.path, c.found_by, pc.detail));
      }
      continue;
    }
    platform::file_identity id = platform::identity_of(c.path);
    machine::environment* same = nullptr;
    for (std::size_t i = 0; i < f.environments.size(); ++i) {
      if (id.known() && ids[i] == id) same = &f.environments[i];
    }
    if (!same) {
      if (f.environments.size() >= environments_limit) {
        over = true;
        continue;
      }
      f.environments.emplace_back();
      ids.push_back(id);
      same = &f.environments.back();
      same->path = c.path;
      same->kind = environment_kind(c);
      if (!is_utf8(c.path)) same->notes.push_back(words::path_not_utf8());
    }
    if (same->kind == "interpreter" && !c.kind.empty()) same->kind = environment_kind(c);
    add_unique(same->found_by, c.found_by);
    if (same->python.empty()) same->python = c.python.empty() ? platform::interpreter_in(c.path) : c.python;
  }
  if (over) {
    f.notes.push_back(words::more_environments_than(environments_limit));
  }
  for (machine::environment& e : f.environments) {
    std::vector<std::string> series = platform::python_series_in(e.path, e.notes);
    text_file cfg = read_text(join_path(e.path, "pyvenv.cfg"));
    read_python_version(e.path, series, cfg, e);
    if (series.empty() && !e.python_version.empty()) series.push_back(leading_parts(e.python_version, 2));
    std::vector<platform::file_identity> seen;  // lib64 is often a link to lib
    for (const std::string& s : series) {
      for (const std::string& dir : platform::site_packages_of(ctx, e.path, s)) {
        platform::file_identity id = platform::identity_of(dir);
        if (id.known() && std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
        seen.push_back(id);
        add_unique(e.site_packages, dir);
      }
    }
    if (e.python_version.empty()) e.notes.push_back(words::python_version_unknown());
    if (e.site_packages.empty()) e.notes.push_back(words::no_site_packages());
    if (cfg.ok() && config_value(cfg.text, "include-system-site-packages") == "true") {
      e.notes.push_back(words::system_site_packages());
    }
  }
  for (const platform::user_site_folder& u : platform::user_sites(ctx, platform::home_folder(ctx), f.notes)) {
    if (f.environments.size() >= environments_limit) break;
    machine::environment e;
    e.kind = "user site";
    e.path = u.path;
    e.python_version = u.series;
    e.version_source = words::folder_name_source();
    e.found_by.push_back("the user site");
    e.site_packages.push_back(u.path);
    e.notes.push_back(words::user_site_seen_by(u.series));
    f.environments.push_back(e);
  }
  for (machine::command_on_path& c : f.on_path) {
    if (c.environment.empty()) continue;
    platform::file_identity id = platform::identity_of(c.environment);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (id.known() && ids[i] == id) {
        add_unique(f.environments[i].started_by, c.command);
        c.environment = f.environments[i].path;
      }
    }
  }
  for (machine::ide_interpreter& interpreter : f.ide_interpreters) {
    platform::file_identity id = platform::identity_of(prefix_for_interpreter(interpreter.path));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (id.known() && ids[i] == id) interpreter.environment = f.environments[i].path;
    }
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
