// The machine as its users have it (machine/): every CUDA toolkit, every Python environment and the
// frameworks in it, every copy of every NVIDIA library, found from their files after this doctor's
// own checks and told the driver and the GPUs those found. --no-discover leaves it out; --python
// adds interpreters or environment folders to it, --project folders whose IDE settings choose an
// interpreter, --build what a source build needs.
#pragma once

#include <string>
#include <vector>

#include "../doctor.hpp"
#include "../machine/machine.hpp"
#include "findings.hpp"
#include "gpu_view.hpp"

namespace doctor {

// What discovery is told of the machine: the driver and the GPUs this doctor found.
inline cushim::machine::options discovery_options(const findings& f, const request& r) {
  cushim::machine::options o;
  o.pythons = r.pythons;
  o.projects = r.projects;
  o.build = r.build;
  o.driver_found = f.driver.driver.found;
  o.driver_cuda_version = f.driver.driver.cuda_version;
  o.driver_version = f.driver.driver.version;
  for (const gpu& g : see_gpus(f).gpus) o.gpu_compute_capabilities.push_back(g.major * 10 + g.minor);
  return o;
}

inline void discover(findings& f, const request& r) {
  f.machine = cushim::machine::discover(discovery_options(f, r));
  f.discovered = true;
}

}  // namespace doctor
