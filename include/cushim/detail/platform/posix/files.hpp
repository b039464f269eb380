// Linux: what is at a path (never opening a FIFO or device), bounded reads of a file, folders.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../../files/byte_source.hpp"
#include "../platform_types.hpp"
#include "../words/files.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// A regular file as stat() found it: what tells it from another file, or from itself rewritten.
inline file_check regular_file_of(const struct stat& st) {
  return {file_state::regular,
          {},
          {std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)},
          std::uint64_t(st.st_size),
          std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

// stat() follows symlinks, so a dangling link reads as absent and a loop as ELOOP; nothing is
// opened, so a FIFO or device named like the library cannot block or be read. `folder_seen`: the
// caller found the folder, so a missing file needs no second look at it.
inline file_check check_file(const std::string& path, bool folder_seen = false) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      if (folder_seen) return {file_state::absent, words::no_such_file, {}};
      std::string dir = path.substr(0, path.find_last_of('/'));
      struct stat dst;
      if (!dir.empty() && ::stat(dir.c_str(), &dst) != 0)
        return {file_state::folder_absent, words::folder_does_not_exist, {}};
      return {file_state::absent, words::no_such_file, {}};
    }
    if (err == ELOOP) return {file_state::not_a_file, "symbolic link loop", {}};
    return {file_state::unreadable, std::strerror(err), {}};
  }
  if (S_ISDIR(st.st_mode)) return {file_state::not_a_file, words::folder_not_file, {}};
  if (!S_ISREG(st.st_mode)) {
    return {file_state::not_a_file, words::not_regular_file_posix, {}, 0, 0, S_ISFIFO(st.st_mode)};
  }
  if (::access(path.c_str(), R_OK) != 0) return {file_state::unreadable, std::strerror(errno), {}};
  return regular_file_of(st);
}

// check_file for an entry of a search list, whose folder is often absent: the folder is looked at
// first, so an absent one costs one system call instead of two. The answers are check_file's.
inline file_check check_file_in_listed_folder(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return check_file(path);
  struct stat st;
  if (::stat(path.substr(0, slash).c_str(), &st) == 0) return check_file(path, true);
  if (errno == ENOENT || errno == ENOTDIR) return {file_state::folder_absent, words::folder_does_not_exist, {}};
  return check_file(path);
}

// A file about to be loaded, held open from just before the load until cushim is done with the copy
// it loaded (docs/checks.md, "What is checked, in order", 1). What the path names must still
// be a regular file (opened without waiting: a FIFO swapped in is seen, never waited on) and, when
// cushim checked it before, that very file, unchanged. A read lease then keeps every other process
// from opening it for writing or cutting it until the pin is released (their open or truncate
// waits), so neither the system loader nor cushim's calls into the copy meet a file cut under their
// mapping (SIGBUS); a file another process has open for writing is being written, and is refused.
// Linux grants a lease to the file's owner (or CAP_LEASE) on a file system that has them: for a
// file another user owns, or on NFS, only the checks remain. What the loader mapped is compared with
// the held file afterwards (same_as_mapped), since the loader opens the path itself: Linux has no
// way to load a file through a descriptor without its $ORIGIN becoming /proc/self/fd.
class file_pin {
 public:
  explicit file_pin(const std::string& path, const file_check* checked = nullptr) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) {
      why_ = errno == ENOENT ? words::no_such_file : std::strerror(errno);
      return;
    }
    struct stat opened;
    if (::fstat(fd_, &opened) != 0 || !S_ISREG(opened.st_mode)) {
      why_ = words::no_longer_regular_file;
      return;
    }
    if (checked && !same_file(opened, *checked)) {
      why_ = words::file_replaced;
      return;
    }
    // SIGURG, ignored unless a handler takes it, is what a writer's attempt would raise in the moment
    // before the owner is cleared (SIGIO, the default, would end the process).
    ::fcntl(fd_, F_SETSIG, SIGURG);
    if (::fcntl(fd_, F_SETLEASE, F_RDLCK) != 0) {
      if (errno == EAGAIN) why_ = words::file_being_written;
      return;  // EACCES (another user's file), EINVAL (no leases here): held, not leased
    }
    ::fcntl(fd_, F_SETOWN, 0);  // a writer's attempt then waits, signalling no one
    struct stat leased;
    if (::fstat(fd_, &leased) != 0 || !same_file(leased, regular_file_of(opened))) {
      why_ = words::file_replaced;
    }
  }
  ~file_pin() {
    if (fd_ >= 0) ::close(fd_);  // releases the lease
  }
  file_pin(const file_pin&) = delete;
  file_pin& operator=(const file_pin&) = delete;

  bool unchanged() const { return why_.empty(); }
  const std::string& why() const { return why_; }

  // Whether the `size` bytes at `mapped` (4 KiB at most) are the held file's first bytes.
  bool same_as_mapped(const void* mapped, std::size_t size) const {
    char bytes[4096];
    if (size > sizeof bytes) return false;
    std::size_t got = 0;
    while (got < size) {
      ssize_t n = ::pread(fd_, bytes + got, size - got, off_t(got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      got += std::size_t(n);
    }
    return std::memcmp(bytes, mapped, size) == 0;
  }

 private:
  static bool same_file(const struct stat& st, const file_check& checked) {
    file_check now = regular_file_of(st);
    return now.identity == checked.identity && now.size == checked.size && now.modified == checked.modified;
  }

  int fd_ = -1;
  std::string why_;
};

// The identity of whatever the path names (file or folder); unknown when it names nothing.
inline file_identity identity_of(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return {};
  return {std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)};
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
      error_ = !stat_ok ? std::strerror(errno) : S_ISDIR(st.st_mode) ? words::folder_not_file : words::not_regular_file;
      ::close(fd_);
      fd_ = -1;
      return;
    }
    size_ = std::uint64_t(st.st_size);
    if (size_ == 0 && !reads_as_empty()) {
      error_ = words::sizeless_file;
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~file_source() override {
    if (fd_ >= 0) ::close(fd_);
  }
  file_source(const file_source&) = delete;
  file_source& operator=(const file_source&) = delete;

  bool ok() const { return fd_ >= 0; }
  // /proc/self/environ says 0 bytes and reads as text; /proc/self/mem says 0 bytes and fails.
  bool reads_as_empty() const {
    char byte;
    return ::pread(fd_, &byte, 1, 0) == 0;
  }
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

inline bool is_folder(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Resolves symlinks and "..": the real file behind a path, for people to read.
inline std::string canonical_path(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return path;
  std::string out(resolved);
  std::free(resolved);
  return out;
}

// The path with its last component's links followed, the folders' left as they are: its file
// name is the real file's, as canonical_path's is, for one readlink per link instead of realpath's
// look at every component. The path itself when it names nothing (as canonical_path).
inline std::string final_link_target(const std::string& path) {
  std::string current = path;
  for (int links = 0; links < 40; ++links) {  // glibc's limit on links in one lookup
    char target[4096];
    ssize_t n = ::readlink(current.c_str(), target, sizeof target);
    if (n < 0) return errno == EINVAL ? current : path;  // EINVAL: not a link, the file itself
    if (std::size_t(n) == sizeof target) return path;
    std::string_view to(target, std::size_t(n));
    current = to.front() == '/' ? std::string(to) : current.substr(0, current.rfind('/') + 1).append(to);
  }
  return path;
}

// The names in a folder that start with `prefix` (all but the hidden ones when it is empty); the
// others are never copied, since a system folder holds hundreds.
inline std::vector<std::string> list_folder(const std::string& path, std::string_view prefix = {}) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return names;
  while (dirent* e = ::readdir(dir)) {
    std::string_view name(e->d_name);
    if (name[0] != '.' && name.compare(0, prefix.size(), prefix) == 0) names.emplace_back(name);
  }
  ::closedir(dir);
  return names;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
