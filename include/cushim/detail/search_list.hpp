// The pieces of a search: candidates, the list that builds them, and the rules every platform
// starts with. search_order.hpp puts them in order with the platform's own rules.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "descriptor.hpp"
#include "path_list.hpp"
#include "platform.hpp"

namespace cushim {
namespace detail {
namespace {

struct candidate {
  std::string rule;  // which rule produced it, e.g. "CUDNN_PATH/lib64"
  std::string path;  // the file to try, or the raw entry when kind is not absolute
  entry_kind kind;
};

class candidate_list {
 public:
  explicit candidate_list(std::string file_name) : file_name_(std::move(file_name)) {}

  void add_dir(std::string rule, const std::string& dir) {
    entry_kind kind = kind_of_entry(dir);
    items_.push_back({std::move(rule), kind == entry_kind::absolute ? join_path(dir, file_name_) : dir, kind});
  }

  void add_file(std::string rule, std::string path) {
    items_.push_back({std::move(rule), std::move(path), entry_kind::absolute});
  }

  void add_list(const std::string& rule, const char* value) {
    if (!value) return;
    std::size_t i = 0;
    for (const path_entry& e : split_path_list(value)) add_dir(rule + "[" + std::to_string(i++) + "]", e.text);
  }

  // The bare name, for the system's default DLL folders.
  void add_default_dirs(std::string rule) { items_.push_back({std::move(rule), file_name_, entry_kind::default_dirs}); }

  std::vector<candidate> take() { return std::move(items_); }

 private:
  std::string file_name_;
  std::vector<candidate> items_;
};

// Children of `folder` named <prefix><number>[...], such as cuda-13.0 and cuda-13.2 for "cuda-13.",
// newest (highest number) first.
inline std::vector<std::string> versioned_children(const std::string& folder, const std::string& prefix) {
  std::vector<std::pair<int, std::string>> found;
  for (const std::string& name : platform::list_folder(folder, prefix)) {
    if (name.size() <= prefix.size()) continue;
    const char* number = name.c_str() + prefix.size();
    if (*number < '0' || *number > '9') continue;
    found.emplace_back(std::atoi(number), name);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> names;
  for (auto& f : found) names.push_back(std::move(f.second));
  return names;
}

// Files already seen in one search: by identity (links followed) where the file exists, else by
// path. A hash set, so a search stays linear in the number of candidates, whatever their count.
class seen_files {
 public:
  // True the first time a file is offered.
  bool first_time(const platform::file_identity& id, const std::string& path) {
    return seen_.insert(id.known() ? std::to_string(id.device) + ":" + std::to_string(id.inode) : "path:" + path)
        .second;
  }

 private:
  std::unordered_set<std::string> seen_;
};

struct search_inputs {
  const std::vector<std::string>* search_dirs;
  bool use_environment;
  std::string executable_path;
  std::string module_path;  // the executable or shared library that holds cushim

  // A variable the caller allows cushim to read (use_environment), or null.
  const char* variable(const char* name) const { return use_environment ? platform::get_environment(name) : nullptr; }
};

// The rules every platform starts with: the caller's folders, CUSHIM_SEARCH_PATH, the
// executable's folder and that of the module holding cushim.
inline void add_leading_rules(candidate_list& list, const search_inputs& in) {
  std::size_t i = 0;
  for (const std::string& dir : *in.search_dirs) list.add_dir("options.search_dirs[" + std::to_string(i++) + "]", dir);
  list.add_list("CUSHIM_SEARCH_PATH", in.variable("CUSHIM_SEARCH_PATH"));
  std::string exe_dir = parent_dir(in.executable_path);
  if (!exe_dir.empty()) list.add_dir("executable's folder", exe_dir);
  std::string module_dir = parent_dir(in.module_path);
  if (!module_dir.empty() && module_dir != exe_dir) list.add_dir("cushim module's folder", module_dir);
}

}  // namespace
}  // namespace detail
}  // namespace cushim
