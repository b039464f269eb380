// explain(): the report as text for a person. Renders what checks.hpp found; decides nothing.
#pragma once

#include <string>

#include "report.hpp"
#include "words/report_text.hpp"

namespace cushim {
namespace detail {
namespace {

inline void append_problem(std::string& out, const problem& p) {
  out += std::string("  ") + (p.fatal ? "ERROR" : "WARNING") + ": " + p.what + "\n";
  if (!p.path.empty()) out += "    file: " + p.path + "\n";
  if (!p.why.empty()) out += "    why:  " + p.why + "\n";
  if (!p.fix.empty()) out += "    fix:  " + p.fix + "\n";
}

inline void append_sublibraries(std::string& out, const library_descriptor& d, const std::vector<sublibrary>& subs) {
  if (subs.empty()) return;
  out += "  sub-libraries:\n";
  for (const sublibrary& s : subs) {
    out += "    " + s.file_name + ": " + (s.usable ? "OK" : "UNUSABLE") + (s.required ? " (required)" : "");
    if (s.version) out += ", " + version_text(d, s.version);
    if (!s.path.empty()) out += ", " + s.path;
    if (s.preloaded) out += " (" + words::preloaded_by_cushim(d.display_name) + ")";
    if (!s.known) out += std::string(" (") + words::sublibrary_not_listed + ")";
    out += "\n";
    if (!s.usable) out += "      why: " + s.problem + "\n";
    for (const shadowing_copy& c : s.shadowing) {
      out +=
          "      met first: " + c.path + " (" + (c.other_release ? "another release, " : "unusable, ") + c.why + ")\n";
    }
  }
}

inline void append_driver(std::string& out, const report_driver& r) {
  const driver_status& d = r.probe;
  if (d.found) {
    out += "NVIDIA driver: " + d.path;
    if (d.cuda_version) out += ", " + words::driver_supports_cuda(d.cuda_version);
    out += "\n";
  } else {
    out += words::driver_not_found;
    out += "\n";
    for (const attempt& a : d.attempts) {  // files that exist but were refused: the stub, a broken copy
      if (a.result == outcome::absent || a.result == outcome::folder_absent) continue;
      out += "    " + a.rule + ": " + a.path + " -> " + to_string(a.result) + " (" + a.detail + ")\n";
    }
  }
  for (const problem& p : r.problems) append_problem(out, p);
}

inline void append_attempt_line(std::string& out, const attempt& a) {
  out += a.rule + ": " + a.path + " -> " + to_string(a.result);
}

inline void append_library(std::string& out, const report_library& lib) {
  const library_descriptor& d = *lib.desc;
  const status& st = *lib.st;
  out += "\n" + std::string(d.display_name) + ": ";
  if (st.code == error_code::disabled) {
    out += words::not_shimmed(d.disabled_by) + "\n";
    return;
  }
  std::string compiled = version_text(d, st.compiled_version);
  if (st.code == error_code::ok) {
    out += "OK, " + version_text(d, st.version) + " (compiled with " + compiled + ") from " + st.path +
           "\n  found by: " + st.found_by + "\n  version from: " + st.version_source + "\n";
  } else {
    out += "UNAVAILABLE (" + std::string(to_string(st.code)) + "), compiled with " + compiled + ", looked for " +
           compiled_file_name(d) + "\n";
  }
  if (!st.attempts.empty()) out += "  searched, in order:\n";
  std::size_t i = 0;
  for (const attempt& a : st.attempts) {
    out += "    " + std::to_string(++i) + ". ";
    append_attempt_line(out, a);
    if (!a.detail.empty()) out += " (" + a.detail + ")";
    out += "\n";
  }
  for (const problem& p : lib.problems) append_problem(out, p);
  if (st.code != error_code::ok) out += std::string("  effect: ") + d.effect + "\n";
  append_sublibraries(out, d, st.sublibraries);
  if (!st.other_copies.empty()) out += std::string("  ") + words::other_copies_heading + "\n";
  for (const attempt& a : st.other_copies) {
    out += "    ";
    append_attempt_line(out, a);
    out += "\n";
  }
  for (const problem& p : lib.call_problems) append_problem(out, p);
}

inline std::string explain_text(const report& r) {
  std::string out = words::explain_heading(r.libraries) + "\n\n";
  append_driver(out, r.driver);
  for (const report_library& lib : r.libraries) append_library(out, lib);
  for (const std::string& note : r.notes) out += "\nNOTE: " + note + "\n";
  return out;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
