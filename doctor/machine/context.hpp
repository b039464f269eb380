// What every discovery stage reads through: the environment it was given, the folder that stands
// for "/" in tests, bounded reads of small text files, and the limits that keep a strange machine
// (an environments.txt of 100,000 lines, a site-packages of 10,000 packages, a 100 MB version.py)
// bounded in time, each with the note that says what was left out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "machine.hpp"
#include <cushim/status.hpp>
#include <cushim/detail/files/json.hpp>
#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/search/path_list.hpp>
#include <cushim/detail/platform/platform.hpp>
#include "files.hpp"
#include "../words/files.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t text_limit = 64 * 1024;         // version files, METADATA, headers: what is read of each
constexpr std::size_t list_file_limit = 1024 * 1024;  // environments.txt
constexpr std::size_t listed_entries_limit = 1000;    // environments.txt entries examined
constexpr std::size_t folder_names_limit = 100000;    // names read from one folder
constexpr std::size_t environments_limit = 1000;      // environments examined in all
constexpr std::size_t cache_file_limit = 16u << 20;   // ld.so.cache

// "64 KiB", "1 MiB", "2048 bytes".
inline std::string size_text(std::uint64_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + " MiB";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n >> 10) + " KiB";
  return count_of_bytes(n);
}

// A small text file, read up to a limit. A FIFO, a device or a folder is named, never opened in
// a way that could block (files.hpp).
struct text_file {
  std::string path;
  std::string text;
  std::string error;  // why it could not be read; empty when it was
  std::uint64_t size = 0;
  bool ok() const { return error.empty(); }
  bool exists() const { return error != words::does_not_exist(); }
  bool truncated() const { return ok() && size > text.size(); }
  // "<path> is 100 MiB; only its first 64 KiB were read".
  std::string truncation_note() const { return words::read_in_part(path, size_text(size), size_text(text.size())); }
};

inline text_file read_text(const std::string& path, std::size_t limit = text_limit) {
  text_file t;
  t.path = path;
  platform::file_source file(path);
  if (!file.ok()) {  // what is there says why, in a person's words
    platform::path_check c = platform::check_path(path);
    t.error = c.kind == platform::path_kind::folder ? words::folder_not_a_file()
              : c.kind == platform::path_kind::file ? file.error()
                                                    : c.detail;
    return t;
  }
  t.size = file.size();
  std::size_t n = std::size_t(t.size < limit ? t.size : limit);
  t.text.resize(n);
  if (n > 0 && !file.read(0, &t.text[0], n)) {
    t.text.clear();
    t.error = words::could_not_be_read();
  }
  return t;
}

// Whether `text` is well-formed UTF-8 (a path JSON will show with U+FFFD where it is not).
inline bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t prefix = 1;
    std::size_t length = utf8_sequence(text, i, prefix);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// The path without "." and "x/.." parts, as a person reads it (a RUNPATH's $ORIGIN/../../nvidia);
// links are not followed.
inline std::string lexically_normal(const std::string& path) {
  auto separator_at = [&](std::size_t i) { return i == path.size() || path[i] == '/' || path[i] == '\\'; };
  bool dots = false;  // a "." or ".." part: most paths have none, and are returned as they are
  for (std::size_t i = 0; i < path.size() && !dots; ++i) {
    if (path[i] != '.' || (i > 0 && path[i - 1] != '/' && path[i - 1] != '\\')) continue;
    dots = separator_at(i + 1) || (i + 1 < path.size() && path[i + 1] == '.' && separator_at(i + 2));
  }
  if (!dots && path.find("//", 1) == std::string::npos) return path;
  std::vector<std::string_view> parts;  // views into path: one allocation for all of them
  std::string_view rest = path;
  std::string out;
  if (separator_at(0) && !path.empty()) {  // "/", or "\\\\server"
    std::size_t n = path.size() > 1 && (path[1] == '/' || path[1] == '\\') ? 2 : 1;
    out = path.substr(0, n);
    rest.remove_prefix(n);
  }
  while (!rest.empty()) {
    std::size_t end = rest.find_first_of("/\\");
    std::string_view part = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (part == ".." && !parts.empty() && parts.back() != "..") {
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += platform::folder_separator;
    out += parts[i];
  }
  return out;
}

inline void add_unique(std::vector<std::string>& items, const std::string& item) {
  for (const std::string& known : items) {
    if (known == item) return;
  }
  items.push_back(item);
}

struct located_folder {
  std::string path;
  std::string found_by;
};

inline void add_if_folder(std::vector<located_folder>& found, const std::string& path, const char* found_by) {
  if (platform::check_path(path).kind != platform::path_kind::absent) found.push_back({path, found_by});
}

// The names in `dir` that start with `prefix`, sorted; a folder that exists but cannot be listed
// is noted.
inline std::vector<std::string> names_starting(const std::string& dir, const std::string& prefix,
                                               std::vector<std::string>& notes) {
  platform::folder_listing l = platform::list_names(dir, folder_names_limit);
  if (!l.error.empty() && l.error != words::does_not_exist()) notes.push_back(words::cannot_be_listed(dir, l.error));
  if (l.total > l.names.size()) notes.push_back(words::names_read_in_part(dir, l.total, l.names.size(), "read"));
  std::vector<std::string> names;
  for (const std::string& n : l.names) {
    if (n.compare(0, prefix.size(), prefix) == 0) names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  return names;
}

class context {
 public:
  explicit context(const machine::options& o) : opts(o) {
    if (o.use_process_environment) {
      for (const std::string& name : platform::environment_names()) {
        if (const char* value = platform::get_environment(name.c_str())) vars_.emplace_back(name, value);
      }
    } else {
      for (const std::string& entry : o.environment) {
        std::size_t equals = entry.find('=', 1);
        if (equals != std::string::npos) vars_.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
      }
    }
    if (const char* root = env("CUSHIM_DISCOVERY_ROOT")) root_ = root;
    while (root_.size() > 1 && (root_.back() == '/' || root_.back() == '\\')) root_.pop_back();
  }

  const machine::options& opts;

  // The variable's value, or null when it is not set (names compare as the platform does).
  const char* env(std::string_view name) const {
    for (const auto& v : vars_) {
      if (same_name(v.first, name)) return v.second.c_str();
    }
    return nullptr;
  }

  // A variable that names something: set and not empty.
  std::string env_value(std::string_view name) const {
    const char* value = env(name);
    return value ? value : "";
  }

  // The names of the variables that start with `prefix` (CUDA_PATH_V), in the environment's order.
  std::vector<std::string> names_starting(std::string_view prefix) const {
    std::vector<std::string> names;
    for (const auto& v : vars_) {
      if (v.first.size() > prefix.size() && same_name(std::string_view(v.first).substr(0, prefix.size()), prefix)) {
        names.push_back(v.first);
      }
    }
    return names;
  }

  // The folder the doctor runs in: this process's (files.hpp), or a given environment's PWD.
  std::string current_folder() const {
    return opts.use_process_environment ? platform::process_current_folder(env("PWD")) : env_value("PWD");
  }

  // A fixed location of the system ("/usr/local"), under CUSHIM_DISCOVERY_ROOT when that is set.
  std::string system_path(std::string_view absolute) const { return root_ + std::string(absolute); }
  const std::string& root() const { return root_; }
  bool redirected() const { return !root_.empty(); }

 private:
  static bool same_name(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      char x = a[i], y = b[i];
      if (platform::windows_names) {
        x = char(x >= 'a' && x <= 'z' ? x - 32 : x);
        y = char(y >= 'a' && y <= 'z' ? y - 32 : y);
      }
      if (x != y) return false;
    }
    return true;
  }

  std::vector<std::pair<std::string, std::string>> vars_;
  std::string root_;
};

// The absolute entries of a PATH-like variable; each empty or relative one is noted (a shell
// would search the current folder for it; discovery does not).
inline std::vector<std::string> absolute_entries(const context& ctx, const char* variable,
                                                 std::vector<std::string>& notes) {
  std::vector<std::string> dirs;
  const char* value = ctx.env(variable);
  if (!value || !*value) return dirs;
  int index = 0;
  for (const path_entry& e : split_path_list(value)) {
    if (e.kind == entry_kind::absolute) {
      dirs.push_back(e.text);
    } else {
      add_unique(notes, words::relative_entry(variable, index, e.kind == entry_kind::empty, e.text));
    }
    ++index;
  }
  return dirs;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
