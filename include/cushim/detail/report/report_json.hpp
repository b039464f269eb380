// explain_json(): the report for a program (schema: docs/explain-json.md). Renders what checks.hpp found,
// the same problems explain() shows; decides nothing.
#pragma once

#include <string>

#include "../files/json.hpp"
#include "report.hpp"

namespace cushim {
namespace detail {
namespace {

inline void append_json_attempts(std::string& out, const std::vector<attempt>& attempts) {
  append_json_array(out, attempts, [&](const attempt& a) {
    json_object(out)
        .field("rule", a.rule)
        .field("path", a.path)
        .field("outcome", to_string(a.result))
        .field("detail", a.detail);
  });
}

inline void append_json_problems(std::string& out, const std::vector<problem>& problems) {
  append_json_array(out, problems, [&](const problem& p) {
    json_object(out)
        .field("code", to_string(p.code))
        .field("fatal", p.fatal)
        .field("what", p.what)
        .field("path", p.path)
        .field("why", p.why)
        .field("fix", p.fix);
  });
}

inline void append_json_library(std::string& out, const report_library& lib) {
  const status& st = *lib.st;
  json_object o(out);
  o.field("library", to_string(st.lib))
      .field("available", st.code == error_code::ok)
      .field("code", to_string(st.code))
      .field("code_value", int(st.code))
      .field("file_name", compiled_file_name(*lib.desc))
      .field("path", st.path)
      .field("found_by", st.found_by)
      .field("version", st.version)
      .field("version_source", st.version_source)
      .field("compiled_version", st.compiled_version);
  append_json_attempts(o.raw("attempts"), st.attempts);
  std::vector<problem> problems = lib.problems;
  problems.insert(problems.end(), lib.call_problems.begin(), lib.call_problems.end());
  append_json_problems(o.raw("problems"), problems);
  append_json_array(o.raw("missing_functions"), lib.missing_functions,
                    [&](const std::string& name) { append_json_string(out, name); });
  o.field("built_for_cuda", st.built_for_cuda);
  append_json_attempts(o.raw("other_copies"), st.other_copies);
  append_json_array(o.raw("sublibraries"), st.sublibraries, [&](const sublibrary& sub) {
    json_object entry(out);
    entry.field("name", sub.name)
        .field("file_name", sub.file_name)
        .field("path", sub.path)
        .field("required", sub.required)
        .field("usable", sub.usable)
        .field("preloaded", sub.preloaded)
        .field("known", sub.known)
        .field("version", sub.version)
        .field("problem", sub.problem);
    append_json_array(entry.raw("shadowing"), sub.shadowing, [&](const shadowing_copy& c) {
      json_object(out).field("path", c.path).field("why", c.why).field("other_release", c.other_release);
    });
  });
  append_json_array(o.raw("blocked_functions"), lib.blocked_functions,
                    [&](const auto& b) { json_object(out).field("function", b.first).field("sublibrary", b.second); });
}

inline std::string explain_json_text(const report& r) {
  std::string out;
  {
    json_object root(out);
    root.field("schema", 1)
        .field("cushim_version", CUSHIM_STRINGIFY(CUSHIM_VERSION_MAJOR) "." CUSHIM_STRINGIFY(
                                     CUSHIM_VERSION_MINOR) "." CUSHIM_STRINGIFY(CUSHIM_VERSION_PATCH));
    {
      const driver_status& d = r.driver.probe;
      json_object o(root.raw("driver"));
      o.field("found", d.found).field("path", d.path).field("cuda_version", d.cuda_version);
      append_json_attempts(o.raw("attempts"), d.attempts);
      append_json_problems(o.raw("problems"), r.driver.problems);
    }
    append_json_array(root.raw("libraries"), r.libraries,
                      [&](const report_library& lib) { append_json_library(out, lib); });
    append_json_array(root.raw("notes"), r.notes, [&](const std::string& n) { append_json_string(out, n); });
  }
  return out;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
