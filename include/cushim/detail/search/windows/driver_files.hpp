// Windows: where the NVIDIA driver (nvcuda.dll) is, and what to do without one.
#pragma once

#include <string>
#include <vector>

#include "../../files/pe.hpp"
#include "../search_list.hpp"
#include "../words/driver.hpp"
#include "../../platform/system_root.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline const char* driver_file_name() { return "nvcuda.dll"; }

inline const char* driver_install_advice() { return words::driver_install_advice(true); }

// The driver's own version ("552.22"): nvcuda.dll's FileVersion ends in it, 31.0.15.5222 is driver
// 552.22 (the last five digits of the last two fields). Empty when the file does not say.
inline std::string driver_version_of(const std::string& path) {
  file_source file(path);
  long parts[4] = {0, 0, 0, 0};
  if (leading_numbers(read_pe_version(file).file_version.c_str(), parts, 4) != 4) return {};
  long last_five = parts[2] % 10 * 10000 + parts[3] % 10000;  // 15.5222 -> 55222
  std::string minor = std::to_string(last_five % 100);
  return std::to_string(last_five / 100) + "." + (minor.size() < 2 ? "0" : "") + minor;
}

// Where the system installs a library it provides itself: System32, where the display driver puts
// nvcuda.dll and the CUDA runtime loads it from; <system root>\System32 when options.system_root
// names a folder that stands for the Windows folder (a machine laid out in a folder).
inline std::vector<candidate> system_install_candidates(const char* file_name) {
  candidate_list list(file_name);
  list.add_dir("System32", system_root().empty() ? system_folder() : join_path(system_root(), "System32"));
  return list.take();
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
