// The doctor's report for a program (--json): cushim::explain_json() unchanged under "cushim", with
// the doctor's own checks beside it. The layout is documented in README.md ("cushim-doctor --json").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "findings.hpp"

namespace doctor {

constexpr int doctor_schema = 1;

using json_member = std::pair<const char*, std::string>;  // a key and its value, already JSON
using json_members = std::vector<json_member>;

inline std::string json_object(const json_members& members) {
  std::string out = "{";
  for (const json_member& m : members) out += (out.size() > 1 ? "," : "") + json_string(m.first) + ":" + m.second;
  return out + "}";
}

template <class T, class F>
std::string json_array(const std::vector<T>& items, F to_json) {
  std::string out = "[";
  for (const T& item : items) out += (out.size() > 1 ? "," : "") + to_json(item);
  return out + "]";
}

inline std::string json_bool(bool value) { return value ? "true" : "false"; }
inline std::string json_number(long long value) { return std::to_string(value); }

// A check's own members, then its advice as "why" and "fix".
inline json_members with_advice(json_members members, const advice& help) {
  members.emplace_back("why", json_string(help.why));
  members.emplace_back("fix", json_string(help.fix));
  return members;
}

inline std::string driver_json(const driver_check& d) {
  return json_object(with_advice(
      {{"version", json_string(d.version)}, {"kernel_module_version", json_string(d.kernel_module_version)}}, d.help));
}

inline std::string dependency_json(const dependency& d) {
  return json_object({{"name", json_string(d.name)},
                      {"path", json_string(d.path)},
                      {"searched", json_array(d.searched, json_string)}});
}

inline std::string library_dependencies_json(const library_dependencies& lib) {
  return json_object({{"file_name", json_string(lib.file_name)},
                      {"path", json_string(lib.path)},
                      {"error", json_string(lib.error)},
                      {"needs", json_array(lib.needs, dependency_json)}});
}

inline std::string gpu_json(const gpu& g) {
  return json_object({{"index", json_number(g.index)},
                      {"name", json_string(g.name)},
                      {"compute_capability", json_string(std::to_string(g.major) + "." + std::to_string(g.minor))},
                      {"memory_bytes", json_number(static_cast<long long>(g.memory_bytes))}});
}

inline std::string gpu_query_json(const gpu_check& g) {
  return json_object(with_advice({{"ran", json_bool(g.ran)},
                                  {"call", json_string(g.call)},
                                  {"error", json_string(g.error_name)},
                                  {"error_value", json_number(g.error)},
                                  {"message", json_string(g.error_text)}},
                                 g.help));
}

inline std::string create_json(const cudnn_create_check& c) {
  return json_object(with_advice({{"ran", json_bool(c.ran)},
                                  {"ok", json_bool(c.ran && c.status == CUDNN_STATUS_SUCCESS)},
                                  {"status", json_string(c.status_name)},
                                  {"status_value", json_number(c.status)},
                                  {"cudnn_message", json_string(c.cudnn_message)}},
                                 c.help));
}

inline std::string verdict_json(const verdict& v) {
  return json_object(
      {{"exit_code", json_number(v.exit_code)}, {"name", json_string(v.name)}, {"text", json_string(v.text)}});
}

inline std::string json_report(const findings& f) {
  return json_object({{"doctor_schema", json_number(doctor_schema)},
                      {"cushim", cushim::explain_json()},
                      {"driver", driver_json(f.driver)},
                      {"dependencies", json_array(f.dependencies, library_dependencies_json)},
                      {"gpu_query", gpu_query_json(f.gpus)},
                      {"gpus", json_array(f.gpus.gpus, gpu_json)},
                      {"cudnn_create", create_json(f.create)},
                      {"verdict", verdict_json(f.result)}}) +
         "\n";
}

}  // namespace doctor
