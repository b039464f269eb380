// Splits PATH-like environment values into entries and says which ones may be used; joins and
// splits paths with the platform's separators.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "os.hpp"
#include CUSHIM_OS_PATHS

namespace cushim {
namespace detail {
namespace {

using platform::is_absolute_path;

// default_dirs: a bare file name for the system's default DLL folders (Windows only).
enum class entry_kind { absolute, relative, empty, default_dirs };

struct path_entry {
  std::string text;
  entry_kind kind;
};

inline entry_kind kind_of_entry(std::string_view text) {
  return text.empty() ? entry_kind::empty : is_absolute_path(text) ? entry_kind::absolute : entry_kind::relative;
}

// Splits on the platform's list separator. Empty and relative entries are kept, marked, so the
// caller can report them: the system loader reads them as the current directory.
inline std::vector<path_entry> split_path_list(std::string_view value) {
  std::vector<path_entry> entries;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(platform::list_separator, start);
    if (end == std::string_view::npos) end = value.size();
    std::string text(value.substr(start, end - start));
    if (platform::quoted_list_entries && text.size() >= 2 && text.front() == '"' && text.back() == '"') {
      text = text.substr(1, text.size() - 2);
    }
    entry_kind kind = kind_of_entry(text);
    entries.push_back({std::move(text), kind});
    start = end + 1;
  }
  return entries;
}

inline std::string join_path(std::string_view dir, std::string_view name) {
  std::string out(dir);
  while (out.size() > 1 && (out.back() == '/' || out.back() == '\\')) out.pop_back();
  if (!out.empty() && out.back() != '/' && out.back() != '\\') out += platform::folder_separator;
  out += name;
  return out;
}

inline std::string parent_dir(std::string_view path) {
  std::size_t slash = path.find_last_of("/\\");
  if (slash == std::string_view::npos) return {};
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

inline std::string file_name_of(std::string_view path) {
  std::size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace
}  // namespace detail
}  // namespace cushim
