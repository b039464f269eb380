// The POSIX side of the platform layer: files, folders, the process's own paths, dlopen.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "byte_source.hpp"

namespace cushim {
namespace detail {
namespace platform {

using library_handle = void*;
using any_function = void (*)();

enum class file_state { regular, absent, folder_absent, not_a_file, unreadable };

struct file_check {
  file_state state;
  std::string detail;
};

// stat() follows symlinks, so a dangling link reads as absent and a loop as ELOOP; nothing is
// opened, so a FIFO or device named like the library cannot block or be read.
inline file_check check_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      std::string dir = path.substr(0, path.find_last_of('/'));
      struct stat dst;
      if (!dir.empty() && ::stat(dir.c_str(), &dst) != 0) return {file_state::folder_absent, "folder does not exist"};
      return {file_state::absent, "no such file"};
    }
    if (err == ELOOP) return {file_state::not_a_file, "symbolic link loop"};
    return {file_state::unreadable, std::strerror(err)};
  }
  if (S_ISDIR(st.st_mode)) return {file_state::not_a_file, "a folder, not a file"};
  if (!S_ISREG(st.st_mode)) return {file_state::not_a_file, "not a regular file (FIFO, device or socket)"};
  if (::access(path.c_str(), R_OK) != 0) return {file_state::unreadable, std::strerror(errno)};
  return {file_state::regular, {}};
}

// A file opened for bounded reads. Only regular files are kept open: O_NONBLOCK makes opening
// a FIFO return at once, and fstat then refuses it, so nothing named like a library can block.
class file_source : public byte_source {
 public:
  explicit file_source(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) {
      error_ = std::strerror(errno);
      return;
    }
    struct stat st;
    bool stat_ok = ::fstat(fd_, &st) == 0;
    if (!stat_ok || !S_ISREG(st.st_mode)) {
      error_ = !stat_ok ? std::strerror(errno) : S_ISDIR(st.st_mode) ? "a folder, not a file" : "not a regular file";
      ::close(fd_);
      fd_ = -1;
      return;
    }
    size_ = std::uint64_t(st.st_size);
  }
  ~file_source() override {
    if (fd_ >= 0) ::close(fd_);
  }
  file_source(const file_source&) = delete;
  file_source& operator=(const file_source&) = delete;

  bool ok() const { return fd_ >= 0; }
  const std::string& error() const { return error_; }
  std::uint64_t size() const override { return size_; }
  bool read(std::uint64_t offset, void* out, std::size_t n) const override {
    if (fd_ < 0 || offset > size_ || n > size_ - offset) return false;
    char* to = static_cast<char*>(out);
    while (n > 0) {
      ssize_t got = ::pread(fd_, to, n, off_t(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      to += got;
      offset += std::uint64_t(got);
      n -= std::size_t(got);
    }
    return true;
  }

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string error_;
};

// For trusted_dirs_only: the file and its folder must belong to root or this user and be
// writable by no one else, or another user could have planted the library.
inline bool trusted_location(const std::string& path, std::string& why) {
  std::string folder = path.substr(0, path.find_last_of('/'));
  for (const std::string& p : {folder.empty() ? std::string("/") : folder, path}) {
    struct stat st;
    if (::stat(p.c_str(), &st) != 0) continue;  // reported by the file checks
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
      why = p + " belongs to another user (uid " + std::to_string(st.st_uid) + ")";
      return false;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
      why = p + " is writable by " + ((st.st_mode & S_IWOTH) ? "every user" : "its group") + " (mode " + mode + ")";
      return false;
    }
  }
  return true;
}

inline bool is_folder(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Resolves symlinks and "..", so the same file reached by two rules is tried once.
inline std::string canonical_path(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return path;
  std::string out(resolved);
  std::free(resolved);
  return out;
}

inline std::vector<std::string> list_folder(const std::string& path) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return names;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  return names;
}

inline const char* get_environment(const char* name) { return std::getenv(name); }

inline std::string executable_path() {
  std::vector<char> buf(4096);
  ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  return std::string(buf.data(), std::size_t(n));
}

// The file (executable or shared library) that holds the given address. For the main program
// glibc reports argv[0], which may be relative or false, so that case uses /proc/self/exe; a
// relative name is never resolved against the current folder.
// cushim's own dlopen/dlsym/dlinfo calls, one at a time: the two libraries may load on two
// threads, and glibc's internal lock is invisible to ThreadSanitizer. Recursive, because a
// library's constructor may call back into cushim on the same thread.
inline std::recursive_mutex& dl_mutex() {
  static std::recursive_mutex* m = new std::recursive_mutex;  // never destroyed: used at exit
  return *m;
}

inline std::string module_path_of(const void* address) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  Dl_info info;
  struct link_map* map = nullptr;
  if (::dladdr1(address, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 || !map) return {};
  if (!map->l_name || map->l_name[0] == '\0') return executable_path();
  return map->l_name[0] == '/' ? std::string(map->l_name) : std::string();
}

struct load_result {
  library_handle handle = nullptr;
  std::string error;
};

inline std::string loaded_path_of(library_handle h) {
  struct link_map* map = nullptr;
  if (::dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
  return map->l_name;
}

// The system loader itself: the default backend. With CUSHIM_USE_BOOST_DLL, platform_boost_dll.hpp
// loads and unloads through Boost.DLL instead, and keeps these for the references find_loaded takes.
namespace native {

// Always an absolute path, so the system search (and the current directory) is not involved.
// RTLD_NOW: a missing symbol in a dependency fails here, not at some later call.
inline load_result load_library(const std::string& absolute_path) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dlerror();
  library_handle h = ::dlopen(absolute_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h) return {h, {}};
  const char* err = ::dlerror();
  return {nullptr, err ? err : "unknown dlopen error"};
}

inline void unload_library(library_handle h) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  if (h) ::dlclose(h);
}

// A copy already in the process (loaded by the app or another framework), without loading one.
inline library_handle find_loaded(const std::string& file_name, std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  library_handle h = ::dlopen(file_name.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h) path = loaded_path_of(h);
  return h;
}

}  // namespace native

#ifndef CUSHIM_USE_BOOST_DLL
using native::find_loaded;
using native::load_library;
using native::unload_library;
#else
inline load_result load_library(const std::string& absolute_path);
inline void unload_library(library_handle h);
inline library_handle find_loaded(const std::string& file_name, std::string& path);
#endif

// The path of a library already in the process under this soname, without loading it.
inline std::string loaded_copy_path(const std::string& soname) {
  std::string path;
  if (library_handle h = find_loaded(soname, path)) unload_library(h);  // drop the reference NOLOAD took
  return path;
}

inline any_function find_symbol(library_handle h, const char* name) {
  void* p;
  {
    std::lock_guard<std::recursive_mutex> lock(dl_mutex());
    p = ::dlsym(h, name);
  }
  any_function f;
  static_assert(sizeof f == sizeof p, "function and data pointers differ in size");
  std::memcpy(&f, &p, sizeof f);
  return p ? f : nullptr;
}

}  // namespace platform
}  // namespace detail
}  // namespace cushim
