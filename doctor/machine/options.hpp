// The machine as its users have it (<cushim/machine.hpp>): every CUDA toolkit, every Python
// environment and the frameworks in it, found from their files after the doctor's own checks,
// with the driver and the GPUs those checks found. --no-discover leaves it out; --python adds
// interpreters or environment folders to it.
#pragma once

#include <string>
#include <vector>

#include "machine.hpp"

#include "../own_build/findings.hpp"

namespace doctor {

// What discovery is told of the machine: the driver and the GPUs the doctor found.
inline cushim::machine::options discovery_options(const findings& f, const std::vector<std::string>& pythons) {
  cushim::machine::options o;
  o.pythons = pythons;
  o.driver_found = f.driver.driver.found;
  o.driver_cuda_version = f.driver.driver.cuda_version;
  o.driver_version = f.driver.driver.version;
  for (const gpu& g : f.gpus.gpus) o.gpu_compute_capabilities.push_back(g.major * 10 + g.minor);
  return o;
}

// Runs discovery and decides the verdict again: a toolkit's or an environment's problem is a warning.
inline void discover(findings& f, const std::vector<std::string>& pythons) {
  f.machine = cushim::machine::discover(discovery_options(f, pythons));
  f.discovered = true;
  f.result = decide(f);
}

}  // namespace doctor
