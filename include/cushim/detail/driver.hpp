// The NVIDIA driver (libcuda.so.1, nvcuda.dll), queried only: is it there, and which CUDA version it supports.
// cushim never routes calls to it; cudart loads it itself.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "search.hpp"

namespace cushim {
namespace detail {

struct driver_status {
  bool found = false;
  std::string path;
  int cuda_version = 0;  // cuDriverGetVersion: the newest CUDA the driver supports (M*1000+m*10)
  std::vector<attempt> attempts;
};

#ifdef _WIN32
inline const char* driver_file_name() { return "nvcuda.dll"; }

// What to do when there is none.
inline const char* driver_install_advice() {
  return "install the NVIDIA display driver for your GPU (it puts nvcuda.dll into System32)";
}

// The display driver installs nvcuda.dll into System32, where the CUDA runtime loads it from.
inline std::vector<candidate> driver_candidates() {
  candidate_list list(driver_file_name());
  list.add_dir("System32", platform::system_folder());
  return list.take();
}
#else
inline const char* driver_file_name() { return "libcuda.so.1"; }

// What to do when there is none.
inline const char* driver_install_advice() {
  return "install the NVIDIA driver for your GPU (it provides libcuda.so.1); in a container, start it with the "
         "NVIDIA container toolkit (--gpus all)";
}

// The same places the system loader uses for libcuda.so.1.
inline std::vector<candidate> driver_candidates() {
  candidate_list list(driver_file_name());
  list.add_list("LD_LIBRARY_PATH", platform::get_environment("LD_LIBRARY_PATH"));
  for (std::string& path : ld_so_cache_paths(system_ld_so_cache(), driver_file_name())) {
    list.add_file("ld.so.cache", std::move(path));
  }
  for (const std::string& dir : system_library_dirs()) list.add_dir("system folder", dir);
  return list.take();
}
#endif

// The toolkit's link-time stub is recorded and ignored (it makes every CUDA call fail with "stub
// library").
inline driver_status probe_driver() {
  driver_status d;
  std::vector<std::string> seen;
  for (const candidate& c : driver_candidates()) {
    if (c.kind != entry_kind::absolute) continue;
    std::string canonical = platform::canonical_path(c.path);
    bool duplicate = false;
    for (const std::string& s : seen) duplicate = duplicate || s == canonical;
    if (duplicate) continue;
    seen.push_back(canonical);
    platform::file_check fc = platform::check_file(c.path);
    if (fc.state != platform::file_state::regular) {
      d.attempts.push_back({c.rule, c.path,
                            fc.state == platform::file_state::folder_absent ? outcome::folder_absent
                            : fc.state == platform::file_state::absent      ? outcome::absent
                                                                            : outcome::not_a_file,
                            fc.detail});
      continue;
    }
    if (canonical.find("/stubs/") != std::string::npos) {
      d.attempts.push_back({c.rule, c.path, outcome::not_the_library,
                            "the CUDA toolkit's link-time stub, not the driver: remove its stubs folder from "
                            "LD_LIBRARY_PATH"});
      continue;
    }
    platform::load_result r = platform::load_library(c.path);
    if (!r.handle) {
      d.attempts.push_back({c.rule, c.path, outcome::load_failed, r.error});
      continue;
    }
    using get_version = int (*)(int*);  // CUresult cuDriverGetVersion(int*); works before cuInit
    platform::any_function f = platform::find_symbol(r.handle, "cuDriverGetVersion");
    if (f) reinterpret_cast<get_version>(f)(&d.cuda_version);
    d.found = true;
    d.path = c.path;
    d.attempts.push_back({c.rule, c.path, outcome::loaded, {}});
    break;  // stays loaded: cudart would load the same file
  }
  return d;
}

inline const driver_status& driver() {
  static driver_status* d = nullptr;
  static std::once_flag once;
  std::call_once(once, [] { d = new driver_status(probe_driver()); });
  return *d;
}

}  // namespace detail
}  // namespace cushim
