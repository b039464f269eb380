// The NVIDIA driver (libcuda.so.1, nvcuda.dll), queried for the report: is it there, and which
// CUDA version it supports. The runtime loads it itself; a program that opts into the driver API
// (CUSHIM_CUDA_DRIVER) has it loaded as a library instead, whose search the report then uses.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "os.hpp"
#include "search_list.hpp"
#include CUSHIM_OS_DRIVER_FILES

namespace cushim {
namespace detail {

struct driver_status {
  bool found = false;
  std::string path;
  int cuda_version = 0;  // cuDriverGetVersion: the newest CUDA the driver supports (M*1000+m*10)
  std::vector<attempt> attempts;
};

// The CUDA toolkit's link-time stub of the driver (.../stubs/libcuda.so): every call into it fails
// with "stub library". Refused wherever it is found.
inline bool is_link_time_stub(const std::string& path) {
  return platform::canonical_path(path).find("/stubs/") != std::string::npos;
}
constexpr const char* link_time_stub_detail =
    "the CUDA toolkit's link-time stub, not the driver: remove its stubs folder from LD_LIBRARY_PATH";

// The toolkit's link-time stub is recorded and ignored.
inline driver_status probe_driver() {
  driver_status d;
  seen_files seen;
  for (const candidate& c : platform::system_install_candidates(platform::driver_file_name())) {
    if (c.kind != entry_kind::absolute) continue;
    platform::file_check fc = platform::check_file(c.path);
    if (!seen.first_time(fc.identity, c.path)) continue;
    if (fc.state != platform::file_state::regular) {
      d.attempts.push_back({c.rule, c.path,
                            fc.state == platform::file_state::folder_absent ? outcome::folder_absent
                            : fc.state == platform::file_state::absent      ? outcome::absent
                                                                            : outcome::not_a_file,
                            fc.detail});
      continue;
    }
    if (is_link_time_stub(c.path)) {
      d.attempts.push_back({c.rule, c.path, outcome::not_the_library, link_time_stub_detail});
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
    break;  // stays loaded: the runtime would load the same file
  }
  return d;
}

// Probed once. Never destroyed: a report may be asked for at exit.
inline const driver_status& driver() {
  static driver_status* d = nullptr;
  static std::once_flag once;
  std::call_once(once, [] { d = new driver_status(probe_driver()); });
  return *d;
}

}  // namespace detail
}  // namespace cushim
