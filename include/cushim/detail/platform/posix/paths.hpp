// How Linux writes paths and path lists.
#pragma once

#include <string_view>

namespace cushim {
namespace detail {
namespace {
namespace platform {

constexpr bool windows_names = false;  // which name a descriptor's os_text gives
constexpr char list_separator = ':';   // PATH, LD_LIBRARY_PATH, CUSHIM_SEARCH_PATH
constexpr char folder_separator = '/';
constexpr bool quoted_list_entries = false;  // a list entry in quotes is a name with quotes

inline bool is_absolute_path(std::string_view p) { return !p.empty() && p[0] == '/'; }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
