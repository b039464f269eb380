// Linux: where the NVIDIA driver (libcuda.so.1) is, and what to do without one.
#pragma once

#include <string>
#include <vector>

#include "../search_list.hpp"
#include "../words/driver.hpp"
#include "dependencies.hpp"
#include "ld_so_cache.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline const char* driver_file_name() { return "libcuda.so.1"; }

inline const char* driver_install_advice() { return words::driver_install_advice(false); }

// The driver's own version ("550.54.15"): libcuda.so.1 is a link to libcuda.so.<version>. Empty
// when the file does not say.
inline std::string driver_version_of(const std::string& path) {
  std::string real = file_name_of(canonical_path(path));
  const std::string prefix = "libcuda.so.";
  if (real.rfind(prefix, 0) != 0) return {};
  std::string version = real.substr(prefix.size());
  return version.find('.') == std::string::npos ? std::string() : version;
}

// Where the system installs a library it provides itself (the driver's libcuda.so.1): the places
// the system loader searches, LD_LIBRARY_PATH, ld.so.cache and the system folders, and no other.
inline std::vector<candidate> system_install_candidates(const char* file_name) {
  candidate_list list(file_name);
  list.add_list("LD_LIBRARY_PATH", get_environment("LD_LIBRARY_PATH"));
  for (std::string& path : ld_so_cache_paths(system_ld_so_cache(), file_name)) {
    list.add_file("ld.so.cache", system_path(path));
  }
  for (const std::string& dir : system_library_dirs()) list.add_dir("system folder", dir);
  return list.take();
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
