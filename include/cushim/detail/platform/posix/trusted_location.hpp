// trusted_dirs_only on Linux: the file and its folder must belong to root or this user and be
// writable by no one else, or another user could have planted the library.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

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

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
