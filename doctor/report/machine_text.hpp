// machine::text() and machine::record(): the findings for a person (one line per toolkit,
// environment and framework when all is well, the details and each problem when not) and as
// the "key: value" lines of a record. They render what discovery found; they decide nothing.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../machine/machine.hpp"
#include "../machine/context.hpp"
#include "../machine/build_tools.hpp"
#include "../machine/layout.hpp"
#include "../words/machine_report.hpp"
#include "../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

inline void append_machine_problem(std::string& out, const machine::problem& p, const std::string& indent) {
  out += indent + "WARNING: " + p.what + "\n";
  if (!p.path.empty()) out += indent + "  file: " + p.path + "\n";
  if (!p.why.empty()) out += indent + "  why:  " + p.why + "\n";
  if (!p.fix.empty()) out += indent + "  fix:  " + p.fix + "\n";
}

inline void append_details(std::string& out, const std::vector<std::string>& notes,
                           const std::vector<machine::problem>& problems, const std::string& indent) {
  for (const std::string& n : notes) out += indent + "note: " + n + "\n";
  for (const machine::problem& p : problems) append_machine_problem(out, p, indent);
}

// "cuDNN 8.5.0 (headers 8.9.7, built for CUDA 11)".
inline std::string cudnn_summary(const machine::cudnn_install& c) {
  std::string text =
      "cuDNN " + (c.library_version.empty() ? std::string(c.library.empty() ? "headers only" : "of unknown version")
                                            : c.library_version);
  std::vector<std::string> parts;
  if (!c.header_version.empty()) parts.push_back("headers " + c.header_version);
  if (c.built_for_cuda_major) parts.push_back("built for CUDA " + std::to_string(c.built_for_cuda_major));
  return text + (parts.empty() ? "" : " (" + joined(parts) + ")");
}

inline std::string version_with_source(const std::string& version, const std::string& source) {
  if (version.empty()) return "version unknown";
  return version + (source.empty() ? "" : " (" + source + ")");
}

// What a build links and what the cuDNN's DLLs import, as Windows would find them.
inline void append_cudnn_files(std::string& out, const machine::cudnn_install& c, const std::string& indent) {
  if (!c.import_library.empty()) {
    out += indent + "import library: " + c.import_library +
           (c.import_library_major ? " (links to " + platform::cudnn_main_file(c.import_library_major) + ")" : "") +
           "\n";
  }
  if (c.imports.empty()) return;
  std::vector<std::string> each;
  for (const machine::resolved_import& i : c.imports) {
    each.push_back(i.name + (i.path.empty() ? " (not found)" : " (" + i.path + ")"));
  }
  out += indent + "imports: " + joined(each) + "\n";
}

inline void append_toolkit(std::string& out, const machine::toolkit& t) {
  out += "  " + t.path + (t.resolved_path.empty() ? "" : " -> " + t.resolved_path) + ": CUDA " +
         version_with_source(t.version, t.version_source);
  if (!t.nvcc.empty()) out += ", nvcc";
  for (const machine::cudnn_install& c : t.cudnn) out += ", " + cudnn_summary(c) + " copied in";
  for (const machine::cudnn_install& c : t.build_cudnn) {
    out += ", builds with " + cudnn_summary(c) + " of " + (c.library.empty() ? c.header : parent_dir(c.library));
  }
  out += "; found by " + joined(t.found_by);
  if (!t.selected_by.empty()) out += "; selected by " + joined(t.selected_by);
  out += "\n";
  for (const machine::cudnn_install& c : t.cudnn) append_cudnn_files(out, c, "    ");
  append_details(out, t.notes, t.problems, "    ");
}

// "cuDNN 9.1.0.70 from /.../nvidia/cudnn/lib/libcudnn.so.9".
inline std::string load_text(const machine::library_load& l) {
  std::string name = l.library.empty() ? l.name : l.library;
  return name + (l.version.empty() ? "" : " " + l.version) + (l.path.empty() ? " (not found)" : " from " + l.path);
}

inline void append_framework(std::string& out, const machine::framework& fw) {
  out += "    " + fw.name + " " + (fw.version.empty() ? std::string("(version unknown)") : fw.version);
  std::vector<std::string> built;
  if (fw.build == "cuda") built.push_back(fw.cuda.empty() ? "CUDA" : "CUDA " + fw.cuda);
  if (fw.build == "cpu") built.push_back("CPU only");
  if (fw.build == "rocm") built.push_back("ROCm, HIP " + fw.hip);
  if (fw.build == "unknown") built.push_back("build unknown");
  if (!fw.cudnn.empty()) built.push_back("cuDNN " + fw.cudnn);
  out += " (" + joined(built) + ")";
  if (!fw.loads.empty()) {
    std::vector<std::string> loads;
    for (const machine::library_load& l : fw.loads) loads.push_back(load_text(l));
    out += ": loads " + joined(loads);
  }
  out += "\n";
  append_details(out, fw.notes, fw.problems, "      ");
}

inline void append_environment(std::string& out, const machine::environment& e) {
  out += "  " + e.kind + " " + e.path + ": Python " + version_with_source(e.python_version, e.version_source) +
         "; found by " + joined(e.found_by);
  if (!e.started_by.empty())
    out += "; " + joined(e.started_by, " and ") + " on PATH start" + (e.started_by.size() == 1 ? "s" : "") + " it";
  if (e.frameworks.empty()) out += "; no framework";
  out += "\n";
  for (const machine::framework& fw : e.frameworks) append_framework(out, fw);
  if (!e.nvidia_wheels.empty()) {
    std::vector<std::string> wheels;
    for (const machine::wheel& w : e.nvidia_wheels) wheels.push_back(w.name + " " + w.version);
    out += "    nvidia wheels: " + joined(wheels) + "\n";
  }
  append_details(out, e.notes, e.problems, "    ");
}

// Whether two versions name one release, as far as the shorter says ("13.0" and "13.0.88" do).
inline bool same_release(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return true;
  std::size_t parts =
      std::min<std::size_t>(3, std::min(std::count(a.begin(), a.end(), '.'), std::count(b.begin(), b.end(), '.')) + 1);
  return leading_parts(a, parts) == leading_parts(b, parts);
}

// "cuDNN 9.14.0, CUDA 13: /usr/lib/x86_64-linux-gnu/libcudnn.so.9 -> libcudnn.so.9.14.0".
inline std::string copy_summary(const machine::library_copy& c) {
  std::string text = c.library + " " + (c.version.empty() ? std::string("(version unknown)") : c.version);
  if (c.cuda_major) text += ", CUDA " + std::to_string(c.cuda_major);
  text += ": " + c.path;
  if (!c.file.empty() && file_name_of(c.file) != file_name_of(c.path)) text += " -> " + file_name_of(c.file);
  return text;
}

inline void append_copy(std::string& out, const machine::library_copy& c) {
  out += "  " + copy_summary(c) + "; " + c.owner;
  out += "; " + (c.used_by.empty() ? words::used_by_no_stack() : "used by " + joined(c.used_by)) + "\n";
  std::vector<std::string> mixed;
  for (const machine::cudnn_file& s : c.sublibraries) {
    if (!same_release(s.version, c.version)) {
      mixed.push_back(s.name + " " + s.version);
    }
  }
  if (!mixed.empty()) out += "    note: " + words::other_release_beside(mixed) + "\n";
  for (const std::string& n : c.notes) out += "    note: " + n + "\n";
}

// Every copy of every NVIDIA library, by library.
inline std::string copies_text(const machine::findings& f) {
  std::string out = "\n" + words::copies_heading() + "\n";
  for (const machine::library_copy& c : f.copies) append_copy(out, c);
  if (f.copies.empty()) out += "  none found\n";
  return out;
}

inline void append_program(std::string& out, const machine::cushim_program& p) {
  out += "  " + p.library + " " + p.headers_version + " headers (" + joined(p.headers_from) + ")" +
         (p.this_program ? ", as this doctor" : "") + ": ";
  out += p.loads.empty() ? "load none\n"
                         : "load " + p.library + " " + leading_parts(p.loads_version, 3) + " from " + p.loads + " (" +
                               p.found_by + ")\n";
  append_details(out, p.notes, p.problems, "    ");
}

inline std::string programs_text(const machine::findings& f) {
  std::string out = "\n" + words::programs_heading() + "\n";
  for (const machine::cushim_program& p : f.programs) append_program(out, p);
  return out;
}

inline std::string findings_text(const machine::findings& f) {
  std::string out = "\n" + words::toolkits_heading() + "\n";
  for (const machine::toolkit& t : f.toolkits) append_toolkit(out, t);
  if (f.toolkits.empty()) {
    out += "  " + words::no_toolkits(platform::toolkit_places) + "\n";
  }
  for (const machine::cudnn_install& c : f.cudnn) {
    out += "  " + c.found_by + ": " + cudnn_summary(c) + ", " + (c.library.empty() ? c.header : c.library) + "\n";
    append_cudnn_files(out, c, "    ");
  }
  out += "\n" + words::pythons_heading() + "\n";
  for (const machine::command_on_path& c : f.on_path) {
    out += "  " + c.command + " on PATH: " +
           (c.path.empty() ? std::string("none") : c.path + (c.environment.empty() ? "" : " (" + c.environment + ")")) +
           (c.how.empty() ? "" : ", " + c.how) + "\n";
  }
  for (const machine::ide_interpreter& i : f.ide_interpreters) {
    out += "  " + words::ide_interpreter_for(i) + ": " + i.path +
           (i.environment.empty() ? "" : " (" + i.environment + ")") + ", from " + i.settings +
           (i.name.empty() ? "" : " (\"" + i.name + "\")") + " and " + i.how + "\n";
  }
  for (const machine::environment& e : f.environments) append_environment(out, e);
  if (f.environments.empty()) out += "  none found\n";
  if (f.build.examined) {
    out += "\n" + words::building_heading() + "\n";
    for (const std::string& i : f.build.installed) out += "  installed: " + i + "\n";
    out += std::string("  ") + platform::compiler_file + " on PATH: " +
           (f.build.compiler.empty()
                ? std::string("none")
                : f.build.compiler +
                      (f.build.compiler_version.empty() ? std::string() : " (" + f.build.compiler_version + ")")) +
           "\n";
    append_details(out, f.build.notes, f.build.problems, "  ");
  }
  if (!f.problems.empty() || !f.notes.empty()) {
    out += "\n" + words::machine_heading() + "\n";
    append_details(out, f.notes, f.problems, "  ");
  }
  return out;
}

inline std::vector<std::pair<std::string, std::string>> findings_record(const machine::findings& f) {
  std::vector<std::pair<std::string, std::string>> kv;
  kv.emplace_back("toolkits", std::to_string(f.toolkits.size()));
  for (std::size_t i = 0; i < f.toolkits.size(); ++i) {
    const machine::toolkit& t = f.toolkits[i];
    std::string value = t.path + " CUDA " + (t.version.empty() ? std::string("unknown") : t.version);
    for (const machine::cudnn_install& c : t.cudnn) value += ", " + cudnn_summary(c);
    kv.emplace_back("toolkit" + std::to_string(i), value);
  }
  for (const machine::command_on_path& c : f.on_path) {
    kv.emplace_back(c.command + "_on_path",
                    c.path.empty() ? "none" : c.path + (c.environment.empty() ? "" : " (" + c.environment + ")"));
  }
  for (const machine::ide_interpreter& i : f.ide_interpreters) {
    kv.emplace_back("ide_interpreter", i.ide + " " + i.project + " " + i.path);
  }
  kv.emplace_back("python_environments", std::to_string(f.environments.size()));
  for (std::size_t i = 0; i < f.environments.size(); ++i) {
    const machine::environment& e = f.environments[i];
    std::string key = "python_env" + std::to_string(i);
    kv.emplace_back(key,
                    e.kind + " " + e.path + " Python " + (e.python_version.empty() ? "unknown" : e.python_version));
    for (const machine::framework& fw : e.frameworks) {
      std::string value = (fw.version.empty() ? std::string("unknown") : fw.version) + ", " +
                          (fw.build == "cuda"   ? "CUDA " + (fw.cuda.empty() ? std::string("unknown") : fw.cuda)
                           : fw.build == "rocm" ? "ROCm HIP " + fw.hip
                                                : fw.build);
      for (const machine::library_load& l : fw.loads) value += ", loads " + load_text(l);
      kv.emplace_back(key + "_" + fw.name, value);
    }
    for (const machine::wheel& w : e.nvidia_wheels) kv.emplace_back(key + "_wheel", w.name + " " + w.version);
  }
  std::size_t problems = f.problems.size() + f.build.problems.size();
  for (const machine::toolkit& t : f.toolkits) problems += t.problems.size();
  for (const machine::environment& e : f.environments) {
    problems += e.problems.size();
    for (const machine::framework& fw : e.frameworks) problems += fw.problems.size();
  }
  kv.emplace_back("discovery_problems", std::to_string(problems));
  return kv;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
