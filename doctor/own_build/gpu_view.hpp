// Whether this machine has a GPU a program can reach: the NVIDIA driver where the system loader finds
// it, and the GPUs its management library (NVML) lists, which answers without any CUDA runtime;
// this program's own CUDA runtime's list where NVML cannot answer. What every stack's verdict
// starts from.
#pragma once

#include <string>
#include <vector>

#include "findings.hpp"
#include "../words/gpu.hpp"
#include "../words/verdict.hpp"

namespace doctor {

struct gpu_view {
  bool usable = false;
  std::string why_not;  // what stops every program from reaching a GPU; empty when usable
  std::string fix;
  std::vector<gpu> gpus;
  std::string listed_by;  // "NVML", "the CUDA runtime"
};

// "H200" of "NVIDIA H200": how people say a GPU's name.
inline std::string short_gpu_name(const std::string& name) {
  const std::string vendor = "NVIDIA ";
  return name.compare(0, vendor.size(), vendor) == 0 && name.size() > vendor.size() ? name.substr(vendor.size()) : name;
}

// "the H200", "the 8 H100 80GB HBM3", "the H100 and the A100".
inline std::string gpus_text(const std::vector<gpu>& gpus) {
  std::vector<std::string> names;
  bool same = true;
  for (const gpu& g : gpus) {
    names.push_back("the " + short_gpu_name(g.name));
    same = same && g.name == gpus.front().name;
  }
  if (gpus.size() > 1 && same) return "the " + std::to_string(gpus.size()) + " " + short_gpu_name(gpus.front().name);
  return words::listed(names);
}

inline gpu_view see_gpus(const findings& f) {
  gpu_view v;
  const cushim::diagnostics::driver_info& d = f.driver.driver;
  if (f.nvml.found && f.nvml.error.empty()) {
    v.listed_by = "NVML";
    for (std::size_t i = 0; i < f.nvml.gpus.size(); ++i) {
      const cushim::diagnostics::nvml_gpu& g = f.nvml.gpus[i];
      v.gpus.push_back({int(i), g.name, g.major, g.minor, g.memory_bytes});
    }
  } else if (f.gpus.ran && f.gpus.error == cudaSuccess) {
    v.listed_by = "the CUDA runtime";
    v.gpus = f.gpus.gpus;
  }
  if (!d.found) {
    v.why_not = words::no_driver();
    v.fix = d.install_advice;
  } else if (!d.blocked_by.empty()) {
    v.why_not = words::driver_waits_on(d.blocked_by);
    v.fix = words::remove(d.blocked_by);
  } else if (!f.driver.help.why.empty()) {
    v.why_not = words::driver_and_module_differ(d.version, f.driver.kernel_module_version);
    v.fix = f.driver.help.fix;
  } else if (v.gpus.empty()) {
    v.why_not =
        f.nvml.found && !f.nvml.error.empty() ? words::nvml_cannot_list(f.nvml.error) : words::driver_sees_no_gpu();
    v.fix = words::check_gpu_visible();
  }
  v.usable = v.why_not.empty();
  return v;
}

}  // namespace doctor
