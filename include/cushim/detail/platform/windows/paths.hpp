// How Windows writes paths and path lists.
#pragma once

#include <string_view>

namespace cushim {
namespace detail {
namespace {
namespace platform {

constexpr bool windows_names = true;  // which name a descriptor's os_text gives
constexpr char list_separator = ';';
constexpr char folder_separator = '\\';
constexpr bool quoted_list_entries = true;  // PATH="C:\Program Files\x";... the loader strips the quotes

// C:\x, C:/x and \\server\share; a bare \x or C:x depends on the current drive or folder.
inline bool is_absolute_path(std::string_view p) {
  if (p.size() >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) return true;
  return p.size() >= 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/');
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
