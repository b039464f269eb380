// The words of what discovery found against the driver and the GPUs: a toolkit or framework built
// for a newer CUDA than the driver supports, for a CUDA that dropped the machine's GPUs, or without
// code for them, and a known-bad release. The facts come from NVIDIA's compatibility data
// (compatibility.hpp) and the driver and GPUs the program found (machine::options).
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/compatibility.hpp>
#include <cushim/detail/search/missing_dependency.hpp>
#include "../machine/machine.hpp"
#include "../machine/text_values.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// "12.4" for the driver's 12040.
inline std::string cuda_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// "7.5" for compute capability 75.
inline std::string sm_text(int cc) { return std::to_string(cc / 10) + "." + std::to_string(cc % 10); }

// What checks against the driver call the things built for a CUDA release.
inline std::string toolkit_subject() { return "toolkit"; }
inline std::string this_toolkit() { return "this toolkit"; }
inline std::string framework_subject(const machine::framework& fw) {
  return "that " + fw.name + " " + fw.version + " was built for";
}
inline std::string toolkit_for_driver_fix() { return "use a toolkit for the CUDA the driver supports"; }

// "the NVIDIA driver (550.54.15)".
inline std::string the_driver(const machine::options& o) {
  return "the NVIDIA driver" + (o.driver_version.empty() ? "" : " (" + o.driver_version + ")");
}

inline std::string driver_older_than(const machine::options& o, const std::string& version,
                                     const std::string& subject) {
  return the_driver(o) + " supports CUDA up to " + cuda_text(o.driver_cuda_version) + ", older than the CUDA " +
         version + " " + subject;
}

// Built for CUDA `version` of a newer major than the driver supports. `minimum` (from `source`):
// the oldest driver of that major; `own`: the driver its toolkit release ships with; either may be
// null where the data has none.
inline machine::problem driver_too_old(const machine::options& o, const std::string& version,
                                       const std::string& subject, const std::string& path, const char* minimum,
                                       const char* source, const char* own, const std::string& builds_fix) {
  std::string major = std::to_string(cuda_minor_key(version) / 100);
  return warning(
      "driver_too_old", driver_older_than(o, version, subject), path,
      "its CUDA calls fail with cudaErrorInsufficientDriver (35, \"CUDA driver version is insufficient for CUDA "
      "runtime version\")" +
          (minimum ? std::string(": CUDA ") + major + ".x needs driver " + minimum + " or newer (" + source + ")"
                   : std::string()),
      "update the NVIDIA driver" + (minimum ? std::string(" to ") + minimum + " or newer" : std::string()) +
          (own ? std::string(" (") + own + " or newer runs everything in CUDA " + leading_parts(version, 2) +
                     ", PTX JIT included)"
               : std::string()) +
          "; or " + builds_fix);
}

// Built for a newer minor of the major the driver supports: it runs, PTX aside.
inline std::string minor_version_compatibility(const machine::options& o, const std::string& version,
                                               const std::string& subject) {
  return driver_older_than(o, version, subject) + ": it runs through minor version compatibility, but PTX built for " +
         version + " cannot be compiled by that driver (cudaErrorUnsupportedPtxVersion)";
}

// A GPU of compute capability `cc` older than CUDA `floor.cuda_major` supports; `before`: the
// previous major's floor, or null.
inline machine::problem gpu_too_old(int cc, const gpu_floor_row& floor, const gpu_floor_row* before,
                                    const std::string& subject, const std::string& version, const std::string& path) {
  int major = floor.cuda_major;
  return warning("gpu_too_old",
                 "the GPU of compute capability " + sm_text(cc) + " is older than CUDA " + std::to_string(major) +
                     " supports (SM " + sm_text(floor.minimum_sm) + " and later), and " + subject + " is for CUDA " +
                     version,
                 path,
                 "CUDA " + std::to_string(major) + ".0 dropped " + floor.dropped + " (" + floor.source +
                     "): nothing built with it runs on that GPU (\"no kernel image is available for execution on "
                     "the device\")",
                 before && cc >= before->minimum_sm
                     ? "use a CUDA " + std::to_string(major - 1) + ".x build for this GPU (CUDA " +
                           std::to_string(major - 1) + " supports SM " + sm_text(before->minimum_sm) + " and later)"
                     : "use a CUDA release whose support includes SM " + sm_text(cc));
}

// Where the GPU architectures a framework is built for come from.
inline std::string listed_architectures(const std::vector<std::string>& architectures) {
  return "its build information lists " + joined(architectures);
}

// `built`: the architectures its wheels have code for; empty: every one from row.sm_min on.
inline std::string wheel_architectures_text(const wheel_architectures_row& row, const std::vector<int>& built) {
  std::vector<std::string> names;
  for (int cc : built) names.push_back(sm_text(cc));
  return std::string("its wheels for ") + row.cuda_tag + " are built for " +
         (built.empty() ? "SM " + sm_text(row.sm_min) + " and later" : "SM " + joined(names)) + " (" + row.source + ")";
}

// `source`: where the architectures it is built for come from (the two above).
inline machine::problem gpu_not_built_for(const machine::framework& fw, int cc, const std::string& source) {
  return warning("gpu_not_built_for",
                 fw.name + " " + fw.version + " has no code for the GPU of compute capability " + sm_text(cc),
                 fw.native_file,
                 source +
                     ": on this GPU it fails with \"no kernel image is available for execution on the "
                     "device\"",
                 "install a build that includes SM " + sm_text(cc) + " (one for an older CUDA), or build " + fw.name +
                     " from source for it");
}

// `release`: "cuDNN 9.10.0", "nvidia-cudnn-cu13 9.20.0.48".
inline machine::problem known_bad_release(const known_bad_row& row, const std::string& release,
                                          const std::string& path) {
  return warning("known_bad_release", release + " is a known-bad release", path,
                 std::string(row.why) + " (" + row.source + ")", row.fix);
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
