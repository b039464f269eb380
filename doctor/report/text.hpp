// The doctor's report for a person: first what works and each problem with its fix, then the GPU,
// the stacks, every copy of every library, this doctor's own loads, and last the verdict.
#pragma once

#include <cstdio>
#include <string>

#include "../machine/machine.hpp"
#include "../own_build/findings.hpp"
#include "../own_build/nvml_devices.hpp"
#include "../verdict/verdict.hpp"
#include "machine_text.hpp"
#include "../words/gpu.hpp"
#include "../words/report.hpp"
#include "../words/verdict.hpp"

namespace doctor {

inline void append_advice(std::string& out, const cushim::problem& help) {
  if (!help.why.empty()) out += "  why: " + help.why + "\n";
  if (!help.fix.empty()) out += "  fix: " + help.fix + "\n";
}

inline void append_driver_version(std::string& out, const driver_check& d) {
  if (!d.driver.found) return;  // explain() has said so, with the fix
  out += "NVIDIA driver version: " + (d.driver.version.empty() ? std::string("unknown") : d.driver.version);
  if (!d.kernel_module_version.empty()) out += " (kernel module " + d.kernel_module_version + ")";
  out += ", " + words::supports_up_to(diag::cuda_version_text(d.driver.cuda_version)) + "\n";
  if (!d.help.why.empty()) out += "  WARNING: " + d.help.what + "\n";
  append_advice(out, d.help);
}

inline void append_built_for(std::string& out, const cushim::status& cudnn, const cushim::status& cudart) {
  if (cudnn.code != cushim::error_code::ok) return;
  out += words::cudnn_built_for(diag::version_text(cudnn.lib, cudnn.version),
                                diag::cuda_version_text(cudnn.built_for_cuda),
                                diag::version_text(cudart.lib, cudart.version)) +
         "\n";
}

// "  libcudnn_cnn.so.9 needs a b c: all found", or each missing one with where it was looked for.
inline void append_file_dependencies(std::string& out, const library_file& file) {
  const diag::file_dependencies& lib = file.dependencies;
  if (!lib.error.empty()) {
    out += "  " + file.file_name + ": cannot be read: " + lib.error + "\n";
    return;
  }
  if (lib.needs.empty()) {
    out += "  " + file.file_name + " needs nothing\n";
    return;
  }
  std::string names, missing;
  for (const diag::dependency& d : lib.needs) {
    names += " " + d.name;
    if (d.path.empty()) missing += "    MISSING " + d.name + ", looked in: " + joined(d.searched) + "\n";
  }
  out += "  " + file.file_name + " needs" + names + (missing.empty() ? ": all found\n" : "\n" + missing);
}

inline void append_dependencies(std::string& out, const std::vector<library_file>& all) {
  if (all.empty()) return;
  out += words::dependencies_heading(diag::dependency_list_name()) + "\n";
  for (const library_file& file : all) append_file_dependencies(out, file);
}

inline void append_gpus(std::string& out, const gpu_check& g) {
  if (!g.ran) {
    out += "GPUs: not checked: " + (g.help.why.empty() ? words::runtime_unavailable() : g.help.why) + "\n";
    if (!g.help.fix.empty()) out += "  fix: " + g.help.fix + "\n";
    return;
  }
  out += "GPUs: " + (g.gpus.empty() ? std::string("none") : std::to_string(g.gpus.size())) + "\n";
  for (const gpu& d : g.gpus) {
    char memory[32];
    std::snprintf(memory, sizeof memory, "%.1f GiB", double(d.memory_bytes) / double(1ull << 30));
    out += "  " + std::to_string(d.index) + ": " + d.name + ", compute capability " + std::to_string(d.major) + "." +
           std::to_string(d.minor) + ", " + memory + "\n";
  }
  if (g.error != cudaSuccess) {
    out += "  " + g.call + ": " + g.error_name + " (" + std::to_string(int(g.error)) + "): " + g.error_text + "\n";
  }
  append_advice(out, g.help);
}

inline void append_create(std::string& out, const cudnn_create_check& c) {
  if (!c.ran) {
    out += "cudnnCreate: not tried: " + (c.help.why.empty() ? words::cudnn_unavailable() : c.help.why) + "\n";
    return;
  }
  out += "cudnnCreate: " + c.status_name + " (" + std::to_string(int(c.status)) + ")\n";
  if (!c.cudnn_message.empty()) out += "  cuDNN says: " + c.cudnn_message + "\n";
  append_advice(out, c.help);
}

inline std::string verdict_line(const verdict& v) {
  return "verdict: " + std::string(words::verdict_label(v.exit_code)) + " (exit " + std::to_string(v.exit_code) +
         "): " + v.text + "\n";
}

// The headline, then each problem with what it is of and its fix.
inline std::string answer_text(const verdict& v) {
  std::string out = v.headline + "\n";
  for (const labelled_problem& p : v.problems) {
    bool names_itself = p.what.what.compare(0, p.of.size(), p.of) == 0;  // "programs built with ... refuse ..."
    out += "  " + (names_itself ? p.what.what : p.of + ": " + p.what.what) + "\n";
    if (!p.what.fix.empty()) out += "    fix: " + p.what.fix + "\n";
  }
  if (!v.gpu.usable) out += "  fix: " + v.gpu.fix + "\n";
  return out;
}

// "GPU: the H200 (NVIDIA H200, compute capability 9.0, 139.8 GiB; listed by NVML), driver 580.159.04".
inline std::string gpu_text(const findings& f, const verdict& v) {
  std::string out = "\nGPU: ";
  if (v.gpu.gpus.empty()) {
    out += "none usable";
  } else {
    std::vector<std::string> each;
    for (const gpu& g : v.gpu.gpus) {
      each.push_back(g.name + ", compute capability " + std::to_string(g.major) + "." + std::to_string(g.minor) + ", " +
                     memory_text(g.memory_bytes));
    }
    out += gpus_text(v.gpu.gpus) + " (" + joined(each) + "; listed by " + v.gpu.listed_by + ")";
  }
  const diag::driver_info& d = f.driver.driver;
  if (d.found) {
    out += "; driver " + (d.version.empty() ? std::string("of unknown version") : d.version) + " (" + d.path + "), " +
           words::supports_up_to(diag::cuda_version_text(d.cuda_version));
  }
  if (!v.gpu.usable) out += " (" + v.gpu.why_not + ")";
  return out + "\n";
}

// This doctor's own loads, as any program built with cushim makes them: explain() and its checks.
inline std::string own_build_text(const findings& f) {
  std::string out = "\n" +
                    words::own_loads_heading(diag::version_text(cushim::library::cudnn, CUDNN_VERSION),
                                             diag::cuda_version_text(CUDART_VERSION)) +
                    "\n" + f.explanation + "\n" + words::own_checks_heading() + "\n";
  append_driver_version(out, f.driver);
  append_nvml(out, f.nvml);
  append_built_for(out, f.of(cushim::library::cudnn), f.of(cushim::library::cudart));
  append_dependencies(out, f.files);
  append_gpus(out, f.gpus);
  append_create(out, f.create);
  return out;
}

inline std::string text_report(const findings& f, const verdict& v) {
  std::string out = answer_text(v) + gpu_text(f, v);
  if (f.discovered) {
    out += cushim::machine::text(f.machine) + cushim::detail::discovery::programs_text(f.machine) +
           cushim::detail::discovery::copies_text(f.machine);
  }
  return out + own_build_text(f) + "\n" + verdict_line(v);
}

}  // namespace doctor
