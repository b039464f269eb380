// The words of this doctor's own view of the driver and the GPUs (own_build/): what stops every
// program from reaching a GPU, and what NVML says.
#pragma once

#include <string>

namespace doctor {
namespace words {

// "supports CUDA up to 12.4".
inline std::string supports_up_to(const std::string& cuda) { return "supports CUDA up to " + cuda; }

// --- What stops every program from reaching a GPU (gpu_view) ---

inline std::string no_driver() { return "no NVIDIA driver was found"; }
inline std::string driver_waits_on(const std::string& fifo) {
  return "the driver's load by name would wait forever on the FIFO " + fifo;
}
inline std::string remove(const std::string& fifo) { return "remove " + fifo; }
inline std::string driver_and_module_differ(const std::string& library, const std::string& module) {
  return "the driver library (" + library + ") and the loaded kernel module (" + module + ") differ";
}
inline std::string nvml_cannot_list(const std::string& error) {
  return "the driver's NVML cannot list the GPUs: " + error;
}
inline std::string driver_sees_no_gpu() { return "the driver sees no GPU"; }
inline std::string check_gpu_visible() {
  return "check that nvidia-smi lists the GPU; unset or correct CUDA_VISIBLE_DEVICES; in a container, pass --gpus all";
}

// --- NVML ---

inline std::string nvml_not_found() { return "NVML: not found (it comes with the NVIDIA driver)"; }

}  // namespace words
}  // namespace doctor
