// What trusted_dirs_only says of a library, or its folder, another user could have written or
// replaced: who owns it, or who may write it (the platform's trusted_location finds them).
#pragma once

#include <cstdio>
#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

// Linux: `uid` owns `path`, neither root nor this process's user.
inline std::string owned_by_other_user(const std::string& path, unsigned long uid) {
  return path + " belongs to another user (uid " + std::to_string(uid) + ")";
}
// Linux: `path`'s mode lets its group, or every user, write it.
inline std::string writable_by_others(const std::string& path, bool every_user, unsigned mode) {
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", mode & 07777);
  return path + " is writable by " + (every_user ? "every user" : "its group") + " (mode " + octal + ")";
}

// Windows: `error` (error_code_text) when reading `path`'s owner and access control list failed.
inline std::string permissions_unreadable(const std::string& path, const std::string& error) {
  return "the permissions of " + path + " cannot be read (" + error + ")";
}
// Windows: `account` ("BUILTIN\Users (S-1-5-32-545)") owns `path`, or may write it.
inline std::string owned_by(const std::string& path, const std::string& account) {
  return path + " belongs to " + account;
}
inline std::string writable_by(const std::string& path, const std::string& account) {
  return path + " is writable by " + account;
}
inline std::string no_access_control_list(const std::string& path) {
  return path + " has no access control list: everyone may write it";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
