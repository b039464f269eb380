// The words of this doctor's own checks (own_build/): the driver's version against its kernel
// module's, the GPUs the CUDA runtime sees, cudnnCreate, what stops every program from reaching a
// GPU, and what NVML says.
#pragma once

#include <string>
#include <utility>

#include <cushim/status.hpp>

namespace doctor {
namespace words {

// What one of this doctor's own checks found and what to do (its `help`): shown as the check's
// why and fix, named only where it becomes a stack's problem (verdict.hpp). Empty: it passed.
inline cushim::problem help(std::string why, std::string fix, std::string what = {}) {
  return {cushim::error_code::ok, false, std::move(what), {}, std::move(why), std::move(fix)};
}

// "supports CUDA up to 12.4".
inline std::string supports_up_to(const std::string& cuda) { return "supports CUDA up to " + cuda; }

// --- The driver ---

// The driver library (`path`, `version`) and the loaded kernel module differ.
inline cushim::problem kernel_module_mismatch(const std::string& path, const std::string& version,
                                              const std::string& module) {
  return help("the driver library " + path + " is " + version + " but the loaded kernel module is " + module +
                  ": CUDA calls fail with cudaErrorSystemDriverMismatch (803)",
              "reboot (or reload the nvidia kernel module) after a driver update; in a container, use the host's "
              "driver libraries through the NVIDIA container toolkit",
              "the driver library and the kernel module differ");
}

// The doctor makes no call that loads the driver: its load by name would wait on `fifo`.
inline cushim::problem driver_load_blocked(const std::string& fifo) {
  return help("not run: the driver's load by name would wait forever on the FIFO " + fifo,
              "remove it (the driver's ERROR above says where the loader looks)");
}

// --- The GPUs the CUDA runtime sees ---

inline std::string check_gpu_visible() {
  return "check that nvidia-smi lists the GPU; unset or correct CUDA_VISIBLE_DEVICES; in a container, pass --gpus all";
}

// `install`: the driver's own advice (diagnostics::driver_info::install_advice).
inline cushim::problem no_driver_for_runtime(const std::string& install) {
  return help("no NVIDIA driver was found: the CUDA runtime cannot reach a GPU", install);
}
// `driver`, `runtime`: "12.4", the CUDA each is for.
inline cushim::problem driver_older_than_runtime(const std::string& driver, const std::string& runtime) {
  return help("the NVIDIA driver supports CUDA up to " + driver + ", older than the CUDA runtime " + runtime,
              "update the NVIDIA driver, or use a build for an older CUDA");
}
// `visible`: CUDA_VISIBLE_DEVICES, or null.
inline cushim::problem runtime_sees_no_gpu(const char* visible) {
  return help(std::string("the driver is loaded but the CUDA runtime sees no GPU") +
                  (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")" : std::string()),
              check_gpu_visible());
}
inline cushim::problem gpu_call_failed(const std::string& call, const std::string& error) {
  return help(call + " failed: " + error, "run nvidia-smi to check the driver and the GPU");
}

// --- cudnnCreate ---

inline cushim::problem no_driver_for_cudnn() {
  return help(
      "no NVIDIA driver was found: cudnnCreate needs a GPU (CUDNN_STATUS_NOT_INITIALIZED is cuDNN's answer when "
      "cudaGetDeviceCount fails)",
      "install the NVIDIA driver; until then, run on the CPU");
}
inline cushim::problem no_usable_gpu() {
  return help("the CUDA runtime sees no usable GPU (see GPUs above)", "fix the GPU problem above first");
}
inline cushim::problem gpu_not_supported_by_cudnn() {
  return help("this cuDNN build does not support the GPU's compute capability",
              "use a cuDNN release that supports the GPU (see cuDNN's support matrix)");
}
inline cushim::problem cudnn_create_failed(const std::string& status) {
  return help("cudnnCreate failed with " + status,
              "rerun with CUDNN_LOGDEST_DBG=stderr and CUDNN_LOGLEVEL_DBG=3 (cuDNN 9) or CUDNN_LOGERR_DBG=1 (cuDNN 8) "
              "for cuDNN's own log");
}

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

// --- NVML ---

inline std::string nvml_not_found() { return "NVML: not found (it comes with the NVIDIA driver)"; }

}  // namespace words
}  // namespace doctor
