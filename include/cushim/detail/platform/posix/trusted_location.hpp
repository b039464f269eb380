// trusted_dirs_only on Linux: the file and its folder must belong to root or this user and be
// writable by no one else, or another user could have planted the library.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "../words/trusted_location.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline bool trusted_location(const std::string& path, std::string& why) {
  std::string folder = path.substr(0, path.find_last_of('/'));
  for (const std::string& p : {folder.empty() ? std::string("/") : folder, path}) {
    struct stat st;
    if (::stat(p.c_str(), &st) != 0) continue;  // reported by the file checks
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
      why = words::owned_by_other_user(p, st.st_uid);
      return false;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
      why = words::writable_by_others(p, (st.st_mode & S_IWOTH) != 0, unsigned(st.st_mode));
      return false;
    }
  }
  return true;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
