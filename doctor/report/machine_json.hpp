// machine::json(): the findings as one JSON object (docs/doctor.md, "cushim-doctor":
// `--json`, "discovery"), written with explain_json()'s writer. It renders; it decides nothing.
#pragma once

#include <string>
#include <vector>

#include "../machine/machine.hpp"
#include <cushim/detail/files/json.hpp>

namespace cushim {
namespace detail {
namespace {
namespace discovery {

inline void strings_json(std::string& out, const std::vector<std::string>& items) {
  append_json_array(out, items, [&](const std::string& s) { append_json_string(out, s); });
}

inline void problem_fields(json_object& o, const machine::problem& p) {
  o.field("code", p.name).field("what", p.what).field("path", p.path).field("why", p.why).field("fix", p.fix);
}

inline void problems_json(std::string& out, const std::vector<machine::problem>& problems) {
  append_json_array(out, problems, [&](const machine::problem& p) {
    json_object o(out);
    problem_fields(o, p);
  });
}

inline void cudnn_json(std::string& out, const machine::cudnn_install& c) {
  json_object o(out);
  o.field("found_by", c.found_by)
      .field("header", c.header)
      .field("header_version", c.header_version)
      .field("library", c.library)
      .field("library_version", c.library_version)
      .field("version_source", c.version_source)
      .field("built_for_cuda_major", c.built_for_cuda_major)
      .field("built_for_source", c.built_for_source);
  append_json_array(o.raw("sublibraries"), c.sublibraries, [&](const machine::cudnn_file& s) {
    json_object(out).field("name", s.name).field("path", s.path).field("version", s.version);
  });
  o.field("import_library", c.import_library).field("import_library_major", c.import_library_major);
  append_json_array(o.raw("imports"), c.imports, [&](const machine::resolved_import& i) {
    json_object d(out);
    d.field("name", i.name).field("path", i.path).field("needed_by", i.needed_by);
    strings_json(d.raw("searched"), i.searched);
  });
}

inline void toolkit_json(std::string& out, const machine::toolkit& t) {
  json_object o(out);
  o.field("path", t.path)
      .field("resolved_path", t.resolved_path)
      .field("version", t.version)
      .field("version_source", t.version_source);
  strings_json(o.raw("found_by"), t.found_by);
  strings_json(o.raw("selected_by"), t.selected_by);
  o.field("nvcc", t.nvcc);
  append_json_array(o.raw("cudnn"), t.cudnn, [&](const machine::cudnn_install& c) { cudnn_json(out, c); });
  append_json_array(o.raw("build_cudnn"), t.build_cudnn, [&](const machine::cudnn_install& c) { cudnn_json(out, c); });
  problems_json(o.raw("problems"), t.problems);
  strings_json(o.raw("notes"), t.notes);
}

inline void framework_json(std::string& out, const machine::framework& fw) {
  json_object o(out);
  o.field("name", fw.name)
      .field("distribution", fw.distribution)
      .field("version", fw.version)
      .field("version_source", fw.version_source)
      .field("build", fw.build)
      .field("cuda", fw.cuda)
      .field("cudnn", fw.cudnn)
      .field("hip", fw.hip);
  strings_json(o.raw("architectures"), fw.architectures);
  o.field("native_file", fw.native_file);
  append_json_array(o.raw("loads"), fw.loads, [&](const machine::library_load& l) {
    json_object(out)
        .field("library", l.library)
        .field("name", l.name)
        .field("path", l.path)
        .field("version", l.version)
        .field("version_source", l.version_source);
  });
  problems_json(o.raw("problems"), fw.problems);
  strings_json(o.raw("notes"), fw.notes);
}

inline void environment_json(std::string& out, const machine::environment& e) {
  json_object o(out);
  o.field("kind", e.kind)
      .field("path", e.path)
      .field("python", e.python)
      .field("python_version", e.python_version)
      .field("version_source", e.version_source);
  strings_json(o.raw("found_by"), e.found_by);
  strings_json(o.raw("site_packages"), e.site_packages);
  strings_json(o.raw("started_by"), e.started_by);
  append_json_array(o.raw("frameworks"), e.frameworks, [&](const machine::framework& fw) { framework_json(out, fw); });
  append_json_array(o.raw("nvidia_wheels"), e.nvidia_wheels, [&](const machine::wheel& w) {
    json_object(out).field("name", w.name).field("version", w.version).field("path", w.path);
  });
  problems_json(o.raw("problems"), e.problems);
  strings_json(o.raw("notes"), e.notes);
}

inline void copy_json(std::string& out, const machine::library_copy& c) {
  json_object o(out);
  o.field("library", c.library).field("key", c.key).field("major", c.major).field("path", c.path).field("file", c.file);
  strings_json(o.raw("also_at"), c.also_at);
  strings_json(o.raw("found_by"), c.found_by);
  o.field("version", c.version)
      .field("version_source", c.version_source)
      .field("cuda_major", c.cuda_major)
      .field("cuda_source", c.cuda_source)
      .field("installed_by", c.installed_by)
      .field("owner", c.owner)
      .field("package", c.package);
  append_json_array(o.raw("sublibraries"), c.sublibraries, [&](const machine::cudnn_file& s) {
    json_object(out).field("name", s.name).field("path", s.path).field("version", s.version);
  });
  strings_json(o.raw("used_by"), c.used_by);
  strings_json(o.raw("notes"), c.notes);
}

inline void program_json(std::string& out, const machine::cushim_program& p) {
  json_object o(out);
  o.field("library", p.library)
      .field("key", p.key)
      .field("headers", p.headers)
      .field("headers_version", p.headers_version);
  strings_json(o.raw("headers_from"), p.headers_from);
  o.field("this_program", p.this_program)
      .field("loads", p.loads)
      .field("loads_version", p.loads_version)
      .field("found_by", p.found_by);
  strings_json(o.raw("refused"), p.refused);
  problems_json(o.raw("problems"), p.problems);
  strings_json(o.raw("notes"), p.notes);
}

inline std::string findings_json(const machine::findings& f) {
  std::string out;
  {
    json_object o(out);
    append_json_array(o.raw("toolkits"), f.toolkits, [&](const machine::toolkit& t) { toolkit_json(out, t); });
    append_json_array(o.raw("cudnn"), f.cudnn, [&](const machine::cudnn_install& c) { cudnn_json(out, c); });
    append_json_array(o.raw("environments"), f.environments,
                      [&](const machine::environment& e) { environment_json(out, e); });
    append_json_array(o.raw("on_path"), f.on_path, [&](const machine::command_on_path& c) {
      json_object(out)
          .field("command", c.command)
          .field("path", c.path)
          .field("environment", c.environment)
          .field("how", c.how);
    });
    append_json_array(o.raw("ide_interpreters"), f.ide_interpreters, [&](const machine::ide_interpreter& i) {
      json_object(out)
          .field("ide", i.ide)
          .field("project", i.project)
          .field("settings", i.settings)
          .field("name", i.name)
          .field("path", i.path)
          .field("environment", i.environment)
          .field("how", i.how);
    });
    {
      json_object b(o.raw("build"));
      b.field("examined", f.build.examined);
      strings_json(b.raw("installed"), f.build.installed);
      b.field("compiler", f.build.compiler).field("compiler_version", f.build.compiler_version);
      problems_json(b.raw("problems"), f.build.problems);
      strings_json(b.raw("notes"), f.build.notes);
    }
    problems_json(o.raw("problems"), f.problems);
    strings_json(o.raw("notes"), f.notes);
  }
  return out;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
