// The doctor's report for a person: cushim::explain(), then the doctor's own checks and the verdict.
#pragma once

#include <cstdio>
#include <string>

#include "../own_build/findings.hpp"
#include "../own_build/nvml_devices.hpp"

namespace doctor {

inline std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

inline void append_advice(std::string& out, const advice& help) {
  if (!help.why.empty()) out += "  why: " + help.why + "\n";
  if (!help.fix.empty()) out += "  fix: " + help.fix + "\n";
}

inline void append_driver_version(std::string& out, const driver_check& d) {
  if (!d.driver.found) return;  // explain() has said so, with the fix
  out += "NVIDIA driver version: " + (d.driver.version.empty() ? std::string("unknown") : d.driver.version);
  if (!d.kernel_module_version.empty()) out += " (kernel module " + d.kernel_module_version + ")";
  out += ", supports CUDA up to " + diag::cuda_version_text(d.driver.cuda_version) + "\n";
  if (!d.help.why.empty()) out += "  WARNING: the driver library and the kernel module differ\n";
  append_advice(out, d.help);
}

inline void append_built_for(std::string& out, const cushim::status& cudnn, const cushim::status& cudart) {
  if (cudnn.code != cushim::error_code::ok) return;
  out += "cuDNN " + diag::version_text(cudnn.lib, cudnn.version) + " was built for CUDA " +
         diag::cuda_version_text(cudnn.built_for_cuda) + " (cudnnGetCudartVersion); the CUDA runtime in use is " +
         diag::version_text(cudart.lib, cudart.version) + "\n";
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
  out += std::string("Dependencies of the libraries in use (") + diag::dependency_list_name() +
         "), resolved as the system loader would:\n";
  for (const library_file& file : all) append_file_dependencies(out, file);
}

inline void append_gpus(std::string& out, const gpu_check& g) {
  if (!g.ran) {
    out += "GPUs: not checked: " + (g.help.why.empty() ? std::string("the CUDA runtime is unavailable") : g.help.why) +
           "\n";
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
    out += "cudnnCreate: not tried: " + (c.help.why.empty() ? std::string("cuDNN is unavailable") : c.help.why) + "\n";
    return;
  }
  out += "cudnnCreate: " + c.status_name + " (" + std::to_string(int(c.status)) + ")\n";
  if (!c.cudnn_message.empty()) out += "  cuDNN says: " + c.cudnn_message + "\n";
  append_advice(out, c.help);
}

inline std::string verdict_line(const verdict& v) {
  const char* label = v.exit_code == exit_gpu_works ? "USABLE"
                      : v.exit_code == exit_no_gpu  ? "UNAVAILABLE"
                                                    : "USABLE WITH WARNINGS";
  return "verdict: " + std::string(label) + " (exit " + std::to_string(v.exit_code) + "): " + v.text + "\n";
}

inline std::string text_report(const findings& f) {
  std::string out = f.explanation + "\ncushim-doctor's own checks\n";
  append_driver_version(out, f.driver);
  append_nvml(out, f.nvml);
  append_built_for(out, f.of(cushim::library::cudnn), f.of(cushim::library::cudart));
  append_dependencies(out, f.files);
  append_gpus(out, f.gpus);
  append_create(out, f.create);
  if (f.discovered) out += cushim::machine::text(f.machine);
  return out + "\n" + verdict_line(f.result);
}

}  // namespace doctor
