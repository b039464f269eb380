// Splits PATH-like environment values into entries and says which ones may be used.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cushim {
namespace detail {

// default_dirs: a bare file name for the system's default DLL folders (Windows only).
enum class entry_kind { absolute, relative, empty, default_dirs };

struct path_entry {
  std::string text;
  entry_kind kind;
};

inline bool is_absolute_path(std::string_view p) {
#ifdef _WIN32
  if (p.size() >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) return true;
  return p.size() >= 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/');
#else
  return !p.empty() && p[0] == '/';
#endif
}

// Splits on the platform's list separator. Empty and relative entries are kept, marked, so the
// caller can report them: the system loader reads them as the current directory.
inline std::vector<path_entry> split_path_list(std::string_view value) {
#ifdef _WIN32
  constexpr char separator = ';';
#else
  constexpr char separator = ':';
#endif
  std::vector<path_entry> entries;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(separator, start);
    if (end == std::string_view::npos) end = value.size();
    std::string text(value.substr(start, end - start));
#ifdef _WIN32
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
#endif
    entry_kind kind = text.empty()             ? entry_kind::empty
                      : is_absolute_path(text) ? entry_kind::absolute
                                               : entry_kind::relative;
    entries.push_back({std::move(text), kind});
    start = end + 1;
  }
  return entries;
}

inline std::string join_path(std::string_view dir, std::string_view name) {
  std::string out(dir);
  while (out.size() > 1 && (out.back() == '/' || out.back() == '\\')) out.pop_back();
#ifdef _WIN32
  if (!out.empty() && out.back() != '/' && out.back() != '\\') out += '\\';
#else
  if (!out.empty() && out.back() != '/' && out.back() != '\\') out += '/';
#endif
  out += name;
  return out;
}

inline std::string parent_dir(std::string_view path) {
  std::size_t slash = path.find_last_of("/\\");
  if (slash == std::string_view::npos) return {};
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

}  // namespace detail
}  // namespace cushim
