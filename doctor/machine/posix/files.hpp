// Linux: what discovery asks of the file system beyond files.hpp: what a path is (links
// followed, a loop named), a folder's names with the reason when it cannot be listed, whether a
// file may be executed, the user's home folder and the current folder. Nothing is opened but
// folders.
#pragma once

#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "../../words/files.hpp"
#include "../path_check.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline path_check check_path(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) return {path_kind::absent, discovery::words::does_not_exist()};
    if (err == ELOOP) return {path_kind::loop, discovery::words::symbolic_link_loop()};
    return {path_kind::error, std::strerror(err)};
  }
  if (S_ISDIR(st.st_mode)) return {path_kind::folder, {}};
  if (S_ISREG(st.st_mode)) return {path_kind::file, {}};
  if (S_ISFIFO(st.st_mode)) return {path_kind::other, discovery::words::fifo_not_a_file()};
  return {path_kind::other, discovery::words::device_not_a_file()};
}

// The names in a folder (not "." and ".."), the first `max` of them; `error` says why it could not
// be listed, `total` how many names it has.
struct folder_listing {
  std::vector<std::string> names;
  std::string error;
  std::size_t total = 0;
};

inline folder_listing list_names(const std::string& path, std::size_t max) {
  folder_listing listing;
  DIR* dir = ::opendir(path.c_str());
  if (!dir) {
    int err = errno;
    listing.error = err == ENOENT  ? discovery::words::does_not_exist()
                    : err == ELOOP ? discovery::words::symbolic_link_loop()
                                   : std::strerror(err);
    return listing;
  }
  while (dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    if (listing.total++ < max) listing.names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  return listing;
}

// A regular file this user may execute: what a shell takes from PATH.
inline bool is_executable_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// The home folder of the user this process runs as, from the password database (what Python's
// expanduser falls back to when HOME is not set).
inline std::string password_home() {
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found || !found->pw_dir) {
    return {};
  }
  return found->pw_dir;
}

// The folder this process runs in: the shell's PWD (which keeps the links a person went through),
// else the kernel's.
inline std::string process_current_folder(const char* pwd) {
  if (pwd && *pwd) return pwd;
  std::vector<char> buffer(4096);
  return ::getcwd(buffer.data(), buffer.size()) ? std::string(buffer.data()) : std::string();
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
