// What cushim-doctor checks beyond cushim::explain(): the driver's own version, cuDNN's
// dependencies, the GPUs the CUDA runtime sees, whether cudnnCreate works, and the verdict.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cushim_internals.hpp"

namespace doctor {

// Exit codes (README.md, "cushim-doctor").
constexpr int exit_usable = 0;         // the libraries load and a GPU works
constexpr int exit_unavailable = 1;    // cuDNN or the CUDA runtime cannot be used
constexpr int exit_warnings = 2;       // both load, but no GPU works or the report has warnings
constexpr int exit_usage = 64;         // bad command line (EX_USAGE)
constexpr int exit_cannot_write = 73;  // the --record file cannot be written (EX_CANTCREAT)

// Why a check failed and what to do; both empty when it passed.
struct advice {
  std::string why;
  std::string fix;
};

struct driver_check {
  driver_info driver;
  std::string version;                // "550.54.15", from the real file name of libcuda; empty when unknown
  std::string kernel_module_version;  // from /proc/driver/nvidia/version; empty without the module
  advice help;
};

struct gpu {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability
  unsigned long long memory_bytes = 0;
};

struct gpu_check {
  bool ran = false;  // false when the CUDA runtime is unavailable
  std::string call;  // the call whose result is reported
  cudaError_t error = cudaSuccess;
  std::string error_name, error_text;
  std::vector<gpu> gpus;
  advice help;
};

struct cudnn_create_check {
  bool ran = false;  // false when cuDNN is unavailable
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  std::string status_name;
  std::string cudnn_message;  // cuDNN's own last error message (cuDNN 9 and later)
  advice help;
};

struct verdict {
  int exit_code = exit_usable;
  std::string name;  // usable, unavailable, usable_with_warnings
  std::string text;
};

struct findings {
  const cushim::status* cudart = nullptr;
  const cushim::status* cudnn = nullptr;
  std::string explanation;  // cushim::explain(), taken after every check ran
  driver_check driver;
  std::vector<library_dependencies> dependencies;  // cuDNN and each of its sub-libraries
  gpu_check gpus;
  cudnn_create_check create;
  verdict result;
};

inline std::string first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "550.54.15" out of "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue ..." (and the
// Open Kernel Module's "... for x86_64  550.54.15  Release Build ..."): the first dotted number.
inline std::string kernel_module_version() {
  std::string line = first_line_of("/proc/driver/nvidia/version");
  std::size_t module = line.find("Module");
  if (module == std::string::npos) return {};
  std::istringstream words(line.substr(module));
  for (std::string word; words >> word;) {
    if (word.find('.') != std::string::npos && word.find_first_not_of("0123456789.") == std::string::npos) return word;
  }
  return {};
}

#ifdef _WIN32
// nvcuda.dll's FileVersion ends in the driver version: 31.0.15.5222 is driver 552.22 (the last
// five digits of the last two fields).
inline std::string driver_version_from_file(const std::string& path) {
  cushim::detail::platform::file_source file(path);
  long parts[4] = {0, 0, 0, 0};
  if (cushim::detail::leading_numbers(cushim::detail::read_pe_version(file).file_version.c_str(), parts, 4) != 4)
    return {};
  long last_five = parts[2] % 10 * 10000 + parts[3] % 10000;  // 15.5222 -> 55222
  std::string minor = std::to_string(last_five % 100);
  return std::to_string(last_five / 100) + "." + (minor.size() < 2 ? "0" : "") + minor;
}
#else
// libcuda.so.1 is a link to libcuda.so.<driver version>.
inline std::string driver_version_from_file(const std::string& path) {
  std::error_code ignored;
  std::string real = std::filesystem::canonical(path, ignored).filename().string();
  const std::string prefix = "libcuda.so.";
  if (real.rfind(prefix, 0) != 0) return {};
  std::string version = real.substr(prefix.size());
  return version.find('.') == std::string::npos ? std::string() : version;
}
#endif

inline driver_check check_driver() {
  driver_check d;
  d.driver = nvidia_driver();
  if (!d.driver.found) return d;
  d.version = driver_version_from_file(d.driver.path);
  d.kernel_module_version = kernel_module_version();
  if (!d.version.empty() && !d.kernel_module_version.empty() && d.version != d.kernel_module_version) {
    d.help = {"the driver library " + d.driver.path + " is " + d.version + " but the loaded kernel module is " +
                  d.kernel_module_version + ": CUDA calls fail with cudaErrorSystemDriverMismatch (803)",
              "reboot (or reload the nvidia kernel module) after a driver update; in a container, use the host's "
              "driver libraries through the NVIDIA container toolkit"};
  }
  return d;
}

inline std::vector<library_dependencies> check_dependencies(const cushim::status& cudnn) {
  std::vector<library_dependencies> all;
  if (cudnn.path.empty()) return all;
  dependency_finder finder;
  all.push_back(finder.of(std::filesystem::path(cudnn.path).filename().string(), cudnn.path));
  for (const cushim::sublibrary& sub : cudnn.sublibraries) {
    if (!sub.path.empty()) all.push_back(finder.of(sub.file_name, sub.path));
  }
  return all;
}

inline advice gpu_advice(const gpu_check& g, const driver_check& d, const cushim::status& cudart) {
  const std::string install_driver = cushim::detail::driver_install_advice();
  if (!d.driver.found) return {"no NVIDIA driver was found: the CUDA runtime cannot reach a GPU", install_driver};
  if (g.error == cudaErrorInsufficientDriver) {
    return {"the NVIDIA driver supports CUDA up to " + cuda_version_text(d.driver.cuda_version) +
                ", older than the CUDA runtime " + cuda_version_text(cudart.version),
            "update the NVIDIA driver, or use a build for an older CUDA"};
  }
  if (g.error == cudaErrorSystemDriverMismatch && !d.help.why.empty()) return d.help;
  if (g.error == cudaErrorNoDevice || (g.error == cudaSuccess && g.gpus.empty())) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    return {std::string("the driver is loaded but the CUDA runtime sees no GPU") +
                (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")" : std::string()),
            "check that nvidia-smi lists the GPU; unset or correct CUDA_VISIBLE_DEVICES; in a container, pass "
            "--gpus all"};
  }
  return {g.call + " failed: " + g.error_text, "run nvidia-smi to check the driver and the GPU"};
}

inline void record_call(gpu_check& g, const std::string& call, cudaError_t error) {
  g.call = call;
  g.error = error;
  g.error_name = cudaGetErrorName(error);
  g.error_text = cudaGetErrorString(error);
}

inline gpu_check check_gpus(const driver_check& d, const cushim::status& cudart) {
  gpu_check g;
  if (!cushim::available(cushim::library::cudart)) return g;
  g.ran = true;
  int count = 0;
  record_call(g, "cudaGetDeviceCount", cudaGetDeviceCount(&count));
  for (int i = 0; g.error == cudaSuccess && i < count; ++i) {
    cudaDeviceProp prop{};
    cudaError_t error = cudaGetDeviceProperties(&prop, i);
    if (error != cudaSuccess) {
      record_call(g, "cudaGetDeviceProperties(" + std::to_string(i) + ")", error);
    } else {
      g.gpus.push_back({i, prop.name, prop.major, prop.minor, prop.totalGlobalMem});
    }
  }
  if (g.error != cudaSuccess || g.gpus.empty()) g.help = gpu_advice(g, d, cudart);
  return g;
}

inline std::string last_cudnn_message() {
#if CUDNN_MAJOR >= 9
  char message[512] = {};
  cudnnGetLastErrorString(message, sizeof message);
  return message;
#else
  return {};  // cuDNN 8 has no cudnnGetLastErrorString
#endif
}

inline advice create_advice(const cudnn_create_check& c, const driver_check& d, const gpu_check& g) {
  if (!d.driver.found) {
    return {
        "no NVIDIA driver was found: cudnnCreate needs a GPU (CUDNN_STATUS_NOT_INITIALIZED is cuDNN's answer when "
        "cudaGetDeviceCount fails)",
        "install the NVIDIA driver; until then, run on the CPU"};
  }
  if (g.gpus.empty())
    return {"the CUDA runtime sees no usable GPU (see GPUs above)", "fix the GPU problem above first"};
  if (c.status == CUDNN_STATUS_ARCH_MISMATCH) {
    return {"this cuDNN build does not support the GPU's compute capability",
            "use a cuDNN release that supports the GPU (see cuDNN's support matrix)"};
  }
  return {"cudnnCreate failed with " + c.status_name,
          "rerun with CUDNN_LOGDEST_DBG=stderr and CUDNN_LOGLEVEL_DBG=3 (cuDNN 9) or CUDNN_LOGERR_DBG=1 (cuDNN 8) for "
          "cuDNN's own log"};
}

inline cudnn_create_check check_cudnn_create(const driver_check& d, const gpu_check& g) {
  cudnn_create_check c;
  if (!cushim::available(cushim::library::cudnn)) return c;
  c.ran = true;
  cudnnHandle_t handle = nullptr;
  c.status = cudnnCreate(&handle);
  c.status_name = cudnnGetErrorString(c.status);
  if (c.status == CUDNN_STATUS_SUCCESS) {
    cudnnDestroy(handle);
  } else {
    c.cudnn_message = last_cudnn_message();
    c.help = create_advice(c, d, g);
  }
  return c;
}

// Warnings of the library sections of explain(); the driver's come first and have reasons of their own.
inline bool report_has_warnings(const findings& f) {
  std::size_t libraries = f.explanation.find("\nCUDA runtime: ");
  if (f.explanation.find("WARNING", libraries == std::string::npos ? 0 : libraries) != std::string::npos) return true;
  for (const cushim::status* st : {f.cudart, f.cudnn}) {
    for (const cushim::problem& p : st->problems) {
      if (!p.fatal) return true;
    }
  }
  return false;
}

inline bool dependencies_complete(const findings& f) {
  for (const library_dependencies& lib : f.dependencies) {
    if (!lib.error.empty()) return false;
    for (const dependency& d : lib.needs) {
      if (d.path.empty()) return false;
    }
  }
  return true;
}

inline std::string unavailable_text(const findings& f) {
  std::string text;
  for (const cushim::status* st : {f.cudart, f.cudnn}) {
    if (st->code == cushim::error_code::ok) continue;
    text += std::string(text.empty() ? "" : " and ") + (st == f.cudnn ? "cuDNN" : "the CUDA runtime") + " (" +
            cushim::to_string(st->code) + ")";
  }
  return text;
}

// The reasons a machine whose libraries load still cannot be called usable.
inline std::vector<std::string> warning_reasons(const findings& f) {
  std::vector<std::string> reasons;
  if (!f.driver.driver.found) {
    reasons.push_back("no NVIDIA driver was found, so nothing runs on a GPU");
  } else {
    if (!f.driver.help.why.empty()) reasons.push_back("the driver library and the kernel module differ");
    if (f.gpus.error != cudaSuccess) reasons.push_back(f.gpus.call + " returned " + f.gpus.error_name);
    if (f.gpus.error == cudaSuccess && f.gpus.gpus.empty()) reasons.push_back("the CUDA runtime sees no GPU");
    if (f.create.status != CUDNN_STATUS_SUCCESS) reasons.push_back("cudnnCreate returned " + f.create.status_name);
  }
  if (!dependencies_complete(f)) reasons.push_back("a cuDNN library lacks a dependency");
  if (report_has_warnings(f)) reasons.push_back("the report above has warnings");
  return reasons;
}

inline std::string loaded_versions_text(const findings& f) {
  return "cuDNN " + cudnn_version_text(f.cudnn->version) + " and the CUDA runtime " +
         cuda_version_text(f.cudart->version);
}

inline std::string gpu_names(const std::vector<gpu>& gpus) {
  std::string names;
  for (const gpu& g : gpus) names += (names.empty() ? "" : ", ") + g.name;
  return names;
}

inline verdict decide(const findings& f) {
  if (f.cudart->code != cushim::error_code::ok || f.cudnn->code != cushim::error_code::ok) {
    return {exit_unavailable, "unavailable",
            "cannot use " + unavailable_text(f) +
                ": programs built with cushim start, but their cuDNN and CUDA calls fail; fix the ERROR lines above"};
  }
  std::vector<std::string> reasons = warning_reasons(f);
  if (reasons.empty()) {
    return {exit_usable, "usable",
            loaded_versions_text(f) + " work on " + std::to_string(f.gpus.gpus.size()) +
                " GPU(s): " + gpu_names(f.gpus.gpus)};
  }
  std::string text = loaded_versions_text(f) + " load, but ";
  for (std::size_t i = 0; i < reasons.size(); ++i) text += (i ? "; " : "") + reasons[i];
  return {exit_warnings, "usable_with_warnings", text};
}

// Runs every check, in the order a careful person would: driver, libraries, GPUs, cudnnCreate.
inline findings examine() {
  findings f;
  f.driver = check_driver();
  f.cudart = &cushim::status_of(cushim::library::cudart);
  f.cudnn = &cushim::status_of(cushim::library::cudnn);
  f.dependencies = check_dependencies(*f.cudnn);
  f.gpus = check_gpus(f.driver, *f.cudart);
  f.create = check_cudnn_create(f.driver, f.gpus);
  f.explanation = cushim::explain();
  f.result = decide(f);
  return f;
}

}  // namespace doctor
