// What cushim-doctor checks beyond cushim::explain(): the driver's own version, the dependencies
// of every library in use, the GPUs the CUDA runtime sees, whether cudnnCreate works, and the
// verdict. Libraries are listed from cushim's own list (diagnostics::libraries()), never by name.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <cushim/diagnostics.hpp>
#include "../doctor.hpp"
#include "../machine/machine.hpp"
#include "../words/gpu.hpp"

namespace doctor {

namespace diag = cushim::diagnostics;

struct driver_check {
  diag::driver_info driver;
  std::string kernel_module_version;  // from /proc/driver/nvidia/version; empty without the module
  cushim::problem help;               // why and fix (words/gpu.hpp); empty when it passed
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
  cushim::problem help;
};

struct cudnn_create_check {
  bool ran = false;  // false when cuDNN is unavailable
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  std::string status_name;
  std::string cudnn_message;  // cuDNN's own last error message (cuDNN 9 and later)
  cushim::problem help;
};

// A library file in use (a library cushim loaded, or one of its sub-libraries) and what it needs.
struct library_file {
  std::string file_name;
  diag::file_dependencies dependencies;
};

struct findings {
  std::vector<const cushim::status*> libraries;  // every library cushim knows, in library order
  std::string explanation;                       // cushim::explain(), taken after every check ran
  std::vector<diag::reported_problem> problems;  // its WARNING and ERROR lines
  driver_check driver;
  diag::nvml_info nvml;             // what nvidia-smi shows, from the driver's NVML
  std::vector<library_file> files;  // every library in use and each of its sub-libraries
  gpu_check gpus;
  cudnn_create_check create;
  cushim::machine::findings machine;  // discovery (machine/options.hpp); empty with --no-discover
  bool discovered = false;

  // cuDNN and the runtime are always listed; another library only when this build shims it.
  const cushim::status& of(cushim::library lib) const {
    for (const cushim::status* st : libraries) {
      if (st->lib == lib) return *st;
    }
    return cushim::status_of(lib);
  }
};

inline bool shimmed(const cushim::status& st) { return st.code != cushim::error_code::disabled; }

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

inline driver_check check_driver() {
  driver_check d;
  d.driver = diag::driver();
  if (!d.driver.found) return d;
  d.kernel_module_version = kernel_module_version();
  const std::string& version = d.driver.version;
  if (!version.empty() && !d.kernel_module_version.empty() && version != d.kernel_module_version) {
    d.help = words::kernel_module_mismatch(d.driver.path, version, d.kernel_module_version);
  }
  return d;
}

inline std::string file_name_of(const std::string& path) { return path.substr(path.find_last_of("/\\") + 1); }

inline std::vector<library_file> check_files(const std::vector<const cushim::status*>& libraries) {
  std::vector<library_file> all;
  for (const cushim::status* st : libraries) {
    if (st->path.empty()) continue;
    all.push_back({file_name_of(st->path), diag::dependencies_of(st->path)});
    for (const cushim::sublibrary& sub : st->sublibraries) {
      if (!sub.path.empty()) all.push_back({sub.file_name, diag::dependencies_of(sub.path)});
    }
  }
  return all;
}

inline cushim::problem gpu_advice(const gpu_check& g, const driver_check& d, const cushim::status& cudart) {
  if (!d.driver.found) return words::no_driver_for_runtime(d.driver.install_advice);
  if (g.error == cudaErrorInsufficientDriver) {
    return words::driver_older_than_runtime(diag::cuda_version_text(d.driver.cuda_version),
                                            diag::cuda_version_text(cudart.version));
  }
  if (g.error == cudaErrorSystemDriverMismatch && !d.help.why.empty()) return d.help;
  if (g.error == cudaErrorNoDevice || (g.error == cudaSuccess && g.gpus.empty())) {
    return words::runtime_sees_no_gpu(std::getenv("CUDA_VISIBLE_DEVICES"));
  }
  return words::gpu_call_failed(g.call, g.error_text);
}

inline void record_call(gpu_check& g, const std::string& call, cudaError_t error) {
  g.call = call;
  g.error = error;
  g.error_name = cudaGetErrorName(error);
  g.error_text = cudaGetErrorString(error);
}

// Why the doctor makes no call that loads the driver: the system loader's search for it meets a
// FIFO first, and such a call would wait on it forever. Empty when nothing stands in the way.
inline cushim::problem blocked_driver_advice(const driver_check& d) {
  if (d.driver.blocked_by.empty()) return {};
  return words::driver_load_blocked(d.driver.blocked_by);
}

inline gpu_check check_gpus(const driver_check& d, const cushim::status& cudart) {
  gpu_check g;
  if (!cushim::available(cushim::library::cudart)) return g;
  g.help = blocked_driver_advice(d);
  if (!g.help.why.empty()) return g;
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

inline cushim::problem create_advice(const cudnn_create_check& c, const driver_check& d, const gpu_check& g) {
  if (!d.driver.found) return words::no_driver_for_cudnn();
  if (g.gpus.empty()) return words::no_usable_gpu();
  if (c.status == CUDNN_STATUS_ARCH_MISMATCH) return words::gpu_not_supported_by_cudnn();
  return words::cudnn_create_failed(c.status_name);
}

inline cudnn_create_check check_cudnn_create(const driver_check& d, const gpu_check& g) {
  cudnn_create_check c;
  if (!cushim::available(cushim::library::cudnn)) return c;
  c.help = blocked_driver_advice(d);
  if (!c.help.why.empty()) return c;
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

// "a, b, c".
inline std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// Runs every check, in the order a careful person would: driver, libraries, GPUs, cudnnCreate.
inline findings examine() {
  findings f;
  f.driver = check_driver();
  f.nvml = diag::nvml();
  // Every library loaded before any status is read: cuDNN's check of what its loads by name
  // would find then sees the cuBLASLt and NVRTC this program loaded. Their sub-libraries are loaded
  // as first calls would (in children: the doctor sets probe_in_child), so that what the report
  // calls usable is what those calls will find.
  for (cushim::library lib : diag::libraries()) cushim::available(lib);
  for (cushim::library lib : diag::libraries()) diag::load_sublibraries(lib);
  for (cushim::library lib : diag::libraries()) f.libraries.push_back(&cushim::status_of(lib));
  f.files = check_files(f.libraries);
  f.gpus = check_gpus(f.driver, f.of(cushim::library::cudart));
  f.create = check_cudnn_create(f.driver, f.gpus);
  f.explanation = cushim::explain();
  f.problems = diag::problems();
  return f;
}

}  // namespace doctor
