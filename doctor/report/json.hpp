// The doctor's report for a program (--json): cushim::explain_json() unchanged under "cushim", with
// the doctor's own checks beside it, written with cushim's own JSON writer. The layout is
// documented in docs/doctor.md, "cushim-doctor" (`--json`).
#pragma once

#include <string>

#include "../own_build/findings.hpp"
#include "../own_build/nvml_devices.hpp"
#include "../verdict/verdict.hpp"
#include "machine_json.hpp"

namespace doctor {

constexpr int doctor_schema = 2;

using diag::append_json_array;
using diag::append_json_string;
using diag::json_object;

// A check's help as its "why" and "fix" members.
inline void advice_fields(json_object& o, const cushim::problem& help) {
  o.field("why", help.why).field("fix", help.fix);
}

inline void driver_json(std::string& out, const driver_check& d) {
  json_object o(out);
  o.field("version", d.driver.version).field("kernel_module_version", d.kernel_module_version);
  advice_fields(o, d.help);
}

inline void file_json(std::string& out, const library_file& file) {
  json_object o(out);
  o.field("file_name", file.file_name).field("path", file.dependencies.path).field("error", file.dependencies.error);
  append_json_array(o.raw("needs"), file.dependencies.needs, [&](const diag::dependency& d) {
    json_object need(out);
    need.field("name", d.name).field("path", d.path);
    append_json_array(need.raw("searched"), d.searched, [&](const std::string& s) { append_json_string(out, s); });
  });
}

inline void gpu_query_json(std::string& out, const gpu_check& g) {
  json_object o(out);
  o.field("ran", g.ran)
      .field("call", g.call)
      .field("error", g.error_name)
      .field("error_value", int(g.error))
      .field("message", g.error_text);
  advice_fields(o, g.help);
}

inline void gpu_json(std::string& out, const gpu& g) {
  json_object(out)
      .field("index", g.index)
      .field("name", g.name)
      .field("compute_capability", std::to_string(g.major) + "." + std::to_string(g.minor))
      .field("memory_bytes", g.memory_bytes);
}

inline void create_json(std::string& out, const cudnn_create_check& c) {
  json_object o(out);
  o.field("ran", c.ran)
      .field("ok", c.ran && c.status == CUDNN_STATUS_SUCCESS)
      .field("status", c.status_name)
      .field("status_value", int(c.status))
      .field("cudnn_message", c.cudnn_message);
  advice_fields(o, c.help);
}

inline void problems_json(std::string& out, const std::vector<cushim::machine::problem>& problems) {
  cushim::detail::discovery::problems_json(out, problems);
}

inline void stack_json(std::string& out, const stack& s) {
  json_object o(out);
  o.field("kind", s.kind)
      .field("name", s.name)
      .field("where", s.where)
      .field("uses_gpu", s.uses_gpu)
      .field("cudnn", s.cudnn)
      .field("named_by_python_option", s.named_by_python);
  problems_json(o.raw("problems"), s.problems);
  append_json_array(o.raw("notes"), s.notes, [&](const std::string& n) { append_json_string(out, n); });
}

inline void gpu_view_json(std::string& out, const gpu_view& g) {
  json_object o(out);
  o.field("usable", g.usable).field("why_not", g.why_not).field("fix", g.fix).field("listed_by", g.listed_by);
  append_json_array(o.raw("gpus"), g.gpus, [&](const gpu& each) { gpu_json(out, each); });
}

inline std::string json_report(const findings& f, const verdict& v) {
  std::string out;
  {
    json_object root(out);
    root.field("doctor_schema", doctor_schema).field("headline", v.headline);
    gpu_view_json(root.raw("gpu"), v.gpu);
    append_json_array(root.raw("stacks"), v.stacks, [&](const stack& s) { stack_json(out, s); });
    append_json_array(root.raw("problems"), v.problems, [&](const labelled_problem& p) {
      json_object o(out);
      o.field("of", p.of);
      cushim::detail::discovery::problem_fields(o, p.what);
    });
    append_json_array(root.raw("inventory"), f.machine.copies,
                      [&](const cushim::machine::library_copy& c) { cushim::detail::discovery::copy_json(out, c); });
    append_json_array(root.raw("programs"), f.machine.programs, [&](const cushim::machine::cushim_program& p) {
      cushim::detail::discovery::program_json(out, p);
    });
    root.raw("cushim") += cushim::explain_json();
    driver_json(root.raw("driver"), f.driver);
    nvml_json(root.raw("nvml"), f.nvml);
    append_json_array(root.raw("dependencies"), f.files, [&](const library_file& file) { file_json(out, file); });
    gpu_query_json(root.raw("gpu_query"), f.gpus);
    append_json_array(root.raw("gpus"), f.gpus.gpus, [&](const gpu& g) { gpu_json(out, g); });
    create_json(root.raw("cudnn_create"), f.create);
    if (f.discovered) root.raw("discovery") += cushim::machine::json(f.machine);
    json_object(root.raw("verdict")).field("exit_code", v.exit_code).field("name", v.name).field("text", v.text);
  }
  return out + "\n";
}

}  // namespace doctor
