// NVML, the driver's management library, asked for the report what nvidia-smi shows: the driver's
// version, the newest CUDA it supports and each GPU's name, compute capability and memory. Found
// only where the driver installs it (like libcuda), loaded, asked and unloaded, whether or not the
// program opts into NVML; the calls go through pointer types of the same ABI as nvml.h's, so no
// NVML header is needed. It answers without the CUDA runtime, and nvmlInit's error says why a
// driver without its kernel module cannot.
#pragma once

#include <string>
#include <vector>

#include "../probe/child_probe.hpp"
#include "../libraries/nvml.hpp"
#include "../platform/os.hpp"
#include "../search/candidate_screen.hpp"
#include "../search/search_list.hpp"
#include "../search/state.hpp"
#include CUSHIM_OS_DRIVER_FILES

namespace cushim {
namespace detail {
namespace {

struct nvml_gpu_record {
  std::string name;
  int major = 0, minor = 0;
  unsigned long long memory_bytes = 0;
};

struct nvml_record {
  bool found = false;  // a copy loaded and exported nvmlInit_v2
  std::string path;
  std::string error;           // the call that failed and its nvmlReturn_t; empty when all answered
  std::string driver_version;  // nvmlSystemGetDriverVersion: "575.51.03"
  int cuda_version = 0;        // nvmlSystemGetCudaDriverVersion: M*1000+m*10
  std::vector<nvml_gpu_record> gpus;
};

// nvmlMemory_t: the first of its three unsigned long long fields is the total.
struct nvml_memory {
  unsigned long long total, free, used;
};

inline void ask_nvml(platform::library_handle h, nvml_record& r) {
  auto symbol = [h](const char* name) { return platform::find_symbol(h, name); };
  using no_arguments = int (*)();
  using text_out = int (*)(char*, unsigned);
  using int_out = int (*)(int*);
  using count_out = int (*)(unsigned*);
  using handle_by_index = int (*)(unsigned, void**);
  using device_text = int (*)(void*, char*, unsigned);
  using device_two_ints = int (*)(void*, int*, int*);
  using device_memory = int (*)(void*, nvml_memory*);
  auto failed = [&r](const char* call, int status) {
    r.error = std::string(call) + " returned " + std::to_string(status);
  };
  int status = reinterpret_cast<no_arguments>(symbol("nvmlInit_v2"))();
  if (status != 0) return failed("nvmlInit_v2", status);
  char text[96] = {};
  if (platform::any_function f = symbol("nvmlSystemGetDriverVersion")) {
    if ((status = reinterpret_cast<text_out>(f)(text, sizeof text)) == 0) r.driver_version = text;
  }
  if (platform::any_function f = symbol("nvmlSystemGetCudaDriverVersion_v2")) {
    reinterpret_cast<int_out>(f)(&r.cuda_version);
  }
  unsigned count = 0;
  platform::any_function get_count = symbol("nvmlDeviceGetCount_v2");
  if (!get_count || (status = reinterpret_cast<count_out>(get_count)(&count)) != 0) {
    failed("nvmlDeviceGetCount_v2", get_count ? status : -1);
    count = 0;
  }
  for (unsigned i = 0; i < count && i < 64; ++i) {
    void* device = nullptr;
    platform::any_function by_index = symbol("nvmlDeviceGetHandleByIndex_v2");
    if (!by_index || (status = reinterpret_cast<handle_by_index>(by_index)(i, &device)) != 0) {
      failed("nvmlDeviceGetHandleByIndex_v2", by_index ? status : -1);
      break;
    }
    nvml_gpu_record g;
    char name[96] = {};
    if (platform::any_function f = symbol("nvmlDeviceGetName")) {
      if (reinterpret_cast<device_text>(f)(device, name, sizeof name) == 0) g.name = name;
    }
    if (platform::any_function f = symbol("nvmlDeviceGetCudaComputeCapability")) {
      reinterpret_cast<device_two_ints>(f)(device, &g.major, &g.minor);
    }
    nvml_memory memory = {0, 0, 0};
    if (platform::any_function f = symbol("nvmlDeviceGetMemoryInfo")) {
      if (reinterpret_cast<device_memory>(f)(device, &memory) == 0) g.memory_bytes = memory.total;
    }
    r.gpus.push_back(g);
  }
  if (platform::any_function f = symbol("nvmlShutdown")) reinterpret_cast<no_arguments>(f)();
}

// The first copy where the driver installs NVML that loads and is NVML; with probe_in_child, one
// that crashes or hangs in a child is passed over, as the driver's search does.
inline nvml_record query_nvml() {
  nvml_record r;
  const child_probe_settings probe = current_child_probe_settings();
  path_screen screen;
  for (const candidate& c : platform::system_install_candidates(platform_text(nvml_files[0].name))) {
    if (c.kind != entry_kind::absolute || screen.screen(c).result != outcome::loaded) continue;
    if (probe.enabled && !failure_in_child({"nvml", c.path}, probe).empty()) continue;
    platform::load_result loaded = platform::load_library(c.path);
    if (!loaded.handle) continue;
    if (platform::find_symbol(loaded.handle, "nvmlInit_v2")) {
      r.found = true;
      r.path = c.path;
      ask_nvml(loaded.handle, r);
    }
    platform::unload_library(loaded.handle);
    if (r.found) break;
  }
  return r;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
