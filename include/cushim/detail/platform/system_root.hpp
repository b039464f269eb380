// The folder that stands for "/" in the fixed places cushim reads on Linux (options.system_root):
// /etc/ld.so.cache and the paths it lists, the system folders, /usr/local/cuda*, the system's
// Python folders. Empty: this machine itself. configure() sets it before anything is read, and
// the places built from it are made once.
#pragma once

#include <string>
#include <string_view>

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::string& system_root_storage() {
  static std::string* root = new std::string;  // never destroyed: a search may run at exit
  return *root;
}

inline const std::string& system_root() { return system_root_storage(); }

inline void set_system_root(std::string_view root) {
  while (root.size() > 1 && root.back() == '/') root.remove_suffix(1);
  system_root_storage() = root == "/" ? std::string() : std::string(root);
}

// A fixed place of the system ("/etc/ld.so.cache") under `root`.
inline std::string path_under(const std::string& root, std::string_view absolute) {
  std::string path = root;
  path += absolute;
  return path;
}

inline std::string system_path(std::string_view absolute) { return path_under(system_root(), absolute); }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
