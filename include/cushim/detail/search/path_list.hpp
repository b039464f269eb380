// Splits PATH-like environment values into entries and says which ones may be used; joins and
// splits paths with the platform's separators.
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../platform/os.hpp"
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

// Calls visit(text, kind) for each entry of a list split on the platform's list separator, the
// text a view into `value`. Empty and relative entries are kept, marked, so the caller can report
// them: the system loader reads them as the current directory.
template <class Visit>
void for_each_path_entry(std::string_view value, Visit visit) {
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(platform::list_separator, start);
    if (end == std::string_view::npos) end = value.size();
    std::string_view text = value.substr(start, end - start);
    if (platform::quoted_list_entries && text.size() >= 2 && text.front() == '"' && text.back() == '"') {
      text = text.substr(1, text.size() - 2);
    }
    visit(text, kind_of_entry(text));
    start = end + 1;
  }
}

inline std::vector<path_entry> split_path_list(std::string_view value) {
  std::vector<path_entry> entries;
  for_each_path_entry(value, [&](std::string_view text, entry_kind kind) {
    entries.push_back({std::string(text), kind});
  });
  return entries;
}

// The folder part of a join: `dir` without its trailing separators (a root keeps its own), and
// whether a separator goes between it and the name. The one rule both joiners below follow.
struct joined_folder {
  std::string_view dir;
  std::size_t separator;
  std::size_t size_with(std::string_view name) const { return dir.size() + separator + name.size(); }
};

inline joined_folder folder_for_join(std::string_view dir) {
  while (dir.size() > 1 && (dir.back() == '/' || dir.back() == '\\')) dir.remove_suffix(1);
  return {dir, !dir.empty() && dir.back() != '/' && dir.back() != '\\' ? std::size_t(1) : 0};
}

// join_path into `out`, whose buffer a caller that joins many names reuses.
inline void join_path_into(std::string& out, std::string_view dir, std::string_view name) {
  const joined_folder folder = folder_for_join(dir);
  out.clear();
  out.reserve(folder.size_with(name));  // one allocation
  out += folder.dir;
  if (folder.separator) out += platform::folder_separator;
  out += name;
}

// join_path into a caller's buffer, NUL-terminated, without allocating; false (and `out` left
// unspecified) when the path and its NUL do not fit in `size` bytes.
inline bool join_path_to(char* out, std::size_t size, std::string_view dir, std::string_view name) {
  const joined_folder folder = folder_for_join(dir);
  const std::size_t length = folder.size_with(name);
  if (length >= size) return false;
  std::memcpy(out, folder.dir.data(), folder.dir.size());
  if (folder.separator) out[folder.dir.size()] = platform::folder_separator;
  std::memcpy(out + folder.dir.size() + folder.separator, name.data(), name.size());
  out[length] = '\0';
  return true;
}

inline std::string join_path(std::string_view dir, std::string_view name) {
  std::string out;
  join_path_into(out, dir, name);
  return out;
}

// The last '/' or '\\', or npos. A plain loop: find_last_of searches its set once per character.
inline std::size_t last_separator(std::string_view path) {
  for (std::size_t i = path.size(); i-- > 0;) {
    if (path[i] == '/' || path[i] == '\\') return i;
  }
  return std::string_view::npos;
}

inline std::string parent_dir(std::string_view path) {
  std::size_t slash = last_separator(path);
  if (slash == std::string_view::npos) return {};
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

inline std::string file_name_of(std::string_view path) {
  std::size_t slash = last_separator(path);
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace
}  // namespace detail
}  // namespace cushim
