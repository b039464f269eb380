// The driver section's NVML lines: what nvidia-smi shows (the driver's version, the newest CUDA it
// supports, each GPU's name, compute capability and memory), from NVML, which answers without the
// CUDA runtime (diagnostics::nvml()). Shown as text and as the JSON member "nvml".
#pragma once

#include <cushim/diagnostics.hpp>

#include <cstdio>
#include <string>

#include "../words/gpu.hpp"

namespace doctor {

// "79.6 GiB"
inline std::string memory_text(unsigned long long bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

inline void append_nvml(std::string& out, const cushim::diagnostics::nvml_info& n) {
  if (!n.found) {
    out += words::nvml_not_found() + "\n";
    return;
  }
  out += "NVML " + n.path + ": ";
  if (!n.driver_version.empty() || n.cuda_version) {
    out += "driver " + (n.driver_version.empty() ? std::string("unknown") : n.driver_version) + ", " +
           words::supports_up_to(cushim::diagnostics::cuda_version_text(n.cuda_version));
  }
  out += n.error.empty() ? "\n" : (n.driver_version.empty() ? "" : "; ") + n.error + "\n";
  for (std::size_t i = 0; i < n.gpus.size(); ++i) {
    const cushim::diagnostics::nvml_gpu& g = n.gpus[i];
    out += "  GPU " + std::to_string(i) + ": " + g.name + ", compute capability " + std::to_string(g.major) + "." +
           std::to_string(g.minor) + ", " + memory_text(g.memory_bytes) + "\n";
  }
}

inline void nvml_json(std::string& out, const cushim::diagnostics::nvml_info& n) {
  cushim::diagnostics::json_object o(out);
  o.field("found", n.found)
      .field("path", n.path)
      .field("error", n.error)
      .field("driver_version", n.driver_version)
      .field("cuda_version", n.cuda_version);
  cushim::diagnostics::append_json_array(o.raw("gpus"), n.gpus, [&](const cushim::diagnostics::nvml_gpu& g) {
    cushim::diagnostics::json_object gpu(out);
    gpu.field("name", g.name)
        .field("compute_capability", std::to_string(g.major) + "." + std::to_string(g.minor))
        .field("memory_bytes", g.memory_bytes);
  });
}

}  // namespace doctor
