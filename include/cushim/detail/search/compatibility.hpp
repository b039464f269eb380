// NVIDIA's compatibility facts as data, one row each with the source it comes from: the minimum
// driver of each CUDA major, each toolkit's own driver, the GPUs each CUDA major dropped, cuDNN's
// support matrix, the builds that are known to be broken, and the GPUs a framework's wheels are
// built for. cushim-doctor's discovery checks toolkits and frameworks against them; explain()
// names the minimum driver. Plain constants: no standard header, nothing to initialise. Their
// words are in words/compatibility.hpp.
#pragma once

#include "words/compatibility.hpp"

namespace cushim {
namespace detail {
namespace {

constexpr const char* source_cuda_compatibility =
    "docs.nvidia.com/deploy/cuda-compatibility, minor version compatibility";

// The oldest driver that runs every release of a CUDA major (minor version compatibility).
struct minimum_driver_row {
  int cuda_major;
  const char* linux_driver;
  const char* windows_driver;  // null: NVIDIA does not say
  const char* source;
};

constexpr minimum_driver_row minimum_drivers[] = {
    {11, "450.80.02", "452.39", source_cuda_compatibility},
    {12, "525.60.13", "527.41", source_cuda_compatibility},
    // 580.88 for Windows is in a secondary source only, not at NVIDIA: left out.
    {13, "580.65.06", nullptr, source_cuda_compatibility},
};

// The driver a toolkit release ships with: what runs everything in it, PTX JIT included.
struct toolkit_driver_row {
  const char* toolkit;  // "11.0.2", "11.1"
  const char* linux_driver;
  const char* windows_driver;
  const char* source;
};

constexpr toolkit_driver_row toolkit_drivers[] = {
    {"11.0.2", "450.51.05", "451.48", words::source_toolkit_drivers},
    {"11.1", "455.23", "456.38", words::source_toolkit_drivers},
    {"11.2.0", "460.27.03", "460.82", words::source_toolkit_drivers},
    {"11.4.0", "470.42.01", "471.11", words::source_toolkit_drivers},
    {"11.6", "510.39.01", "511.23", words::source_toolkit_drivers},
    {"11.8", nullptr, "522.06", words::source_toolkit_drivers},
    {"12.4", "550.54.14", nullptr, words::source_toolkit_drivers},
};

// The oldest GPU architecture a CUDA major compiles for and runs on.
struct gpu_floor_row {
  int cuda_major;
  int minimum_sm;       // 50 for SM 5.0
  const char* dropped;  // what the major removed
  const char* source;
};

constexpr gpu_floor_row gpu_floors[] = {
    {12, 50, words::cuda_12_dropped, words::source_cuda_12_dropped},
    {13, 75, words::cuda_13_dropped, words::source_cuda_13_dropped},
};

// A range of CUDA releases, major.minor to major.minor inclusive (12.0 - 12.9: {1200, 1209}).
struct cuda_range {
  int from, to;  // major * 100 + minor
};

// One release's row of cuDNN's support matrix. It is taken for releases of its own major.minor
// from its patch on (9.10.2 for 9.10.2 - 9.10.x); other releases are not checked.
struct cudnn_support_row {
  const char* release;  // "8.9.5"
  int major, minor, patch;
  cuda_range cuda[2];  // {0, 0}: none
  int sm_min, sm_max;  // 0: the matrix gives no bound
  const char* source;
};

// Each release's own support matrix (docs.nvidia.com/deeplearning/cudnn): the CUDA releases it was
// validated with. A later minor of a major it lists runs it through minor version compatibility.
constexpr cudnn_support_row cudnn_support[] = {
    {"8.5.0",
     8,
     5,
     0,
     {{1100, 1107}, {0, 0}},
     35,
     0,
     "cuDNN 8.5.0 support matrix (docs.nvidia.com/deeplearning/cudnn/archives/cudnn-850/support-matrix)"},
    {"8.9.5",
     8,
     9,
     5,
     {{1200, 1202}, {1100, 1108}},
     50,
     90,
     "cuDNN 8.9.5 support matrix (docs.nvidia.com/deeplearning/cudnn/archives/cudnn-895/support-matrix)"},
    {"9.0.0",
     9,
     0,
     0,
     {{1200, 1203}, {1100, 1108}},
     50,
     90,
     "cuDNN 9.0.0 support matrix (docs.nvidia.com/deeplearning/cudnn/archives/cudnn-900/support-matrix)"},
    {"9.5.1",
     9,
     5,
     1,
     {{1200, 1206}, {1108, 1108}},
     0,
     0,
     "cuDNN 9.5.1 support matrix (docs.nvidia.com/deeplearning/cudnn/v9.5.1/reference/support-matrix)"},
    {"9.10.2",
     9,
     10,
     2,
     {{1200, 1209}, {1108, 1108}},
     50,
     120,
     "cuDNN 9.10.2 support matrix (docs.nvidia.com/deeplearning/cudnn/backend/v9.10.2/reference/support-matrix)"},
    {"9.17.0",
     9,
     17,
     0,
     {{1300, 1301}, {1200, 1209}},
     75,
     120,
     "cuDNN 9.17.0 support matrix (docs.nvidia.com/deeplearning/cudnn/backend/v9.17.0/reference/support-matrix)"},
};

// A build that is broken whatever else is installed. `package` is "cudnn" for every cuDNN of
// the release (a toolkit's, a wheel's), or the pip distribution whose build it is.
struct known_bad_row {
  const char* package;
  const char* version;     // as that package spells it: "9.10.0", "9.20.0.48"
  const char* linux_file;  // the file the build lacks (Linux wheels), or null: a build with it is not that one
  const char* why;
  const char* fix;
  const char* source;
};

constexpr known_bad_row known_bad_releases[] = {
    {"cudnn", "9.10.0", nullptr, words::cudnn_9_10_0_why, words::cudnn_9_10_0_fix, words::source_jax_cudnn_check},
    {"nvidia-cudnn-cu13", "9.20.0.48", "libcudnn_engines_tensor_ir.so.9", words::cudnn_cu13_9_20_0_48_why,
     words::cudnn_cu13_9_20_0_48_fix, "pytorch/pytorch#187824, #188892"},
};

// The GPUs a framework's wheels of one CUDA tag are built for, where the framework says.
struct wheel_architectures_row {
  const char* framework;  // "torch"
  const char* cuda_tag;   // the local version's tag: "cu128"
  int sm[8];              // the architectures built, 0-terminated; empty: every one from sm_min on
  int sm_min;
  const char* source;
};

constexpr wheel_architectures_row wheel_architectures[] = {
    {"torch", "cu128", {75, 80, 86, 90, 100, 120, 0, 0}, 75, "pytorch/pytorch#157517"},
    {"torch", "cu130", {0, 0, 0, 0, 0, 0, 0, 0}, 75, words::source_torch_cu130_architectures},
};

// The minimum driver row of a CUDA major; null for a major without one.
constexpr const minimum_driver_row* minimum_driver_for(int cuda_major) {
  for (const minimum_driver_row& row : minimum_drivers) {
    if (row.cuda_major == cuda_major) return &row;
  }
  return nullptr;
}

constexpr const gpu_floor_row* gpu_floor_for(int cuda_major) {
  for (const gpu_floor_row& row : gpu_floors) {
    if (row.cuda_major == cuda_major) return &row;
  }
  return nullptr;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
