// The pieces of a search: candidates, the list that builds them, and the rules every platform
// starts with. search_order.hpp puts them in order with the platform's own rules.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "descriptor.hpp"
#include "path_list.hpp"
#include "../platform/platform.hpp"
#include "../files/sorting.hpp"

namespace cushim {
namespace detail {
namespace {

struct candidate {
  std::string rule;  // which rule produced it, e.g. "CUDNN_PATH/lib64"; empty for a list entry
  std::string path;  // the file to try, or the raw entry when kind is not absolute
  entry_kind kind;
  // An entry of a search list is named by the list and its index ("CUSHIM_SEARCH_PATH[12]",
  // rule_of), so a list of 10,000 entries builds no rule text until one is reported.
  const char* list = nullptr;  // a string literal
  std::size_t entry = 0;
};

// The rule as reports show it: "CUDNN_PATH/lib64", "CUSHIM_SEARCH_PATH[12]".
inline std::string rule_of(const candidate& c) {
  return c.list ? c.list + ("[" + std::to_string(c.entry) + "]") : c.rule;
}

// "CUSHIM_SEARCH_PATH" for "CUSHIM_SEARCH_PATH[12]"; empty for a rule that is not a list entry.
inline std::string_view list_of_rule(std::string_view rule) {
  std::size_t bracket = rule.find('[');
  return bracket == std::string_view::npos || rule.back() != ']' ? std::string_view() : rule.substr(0, bracket);
}

// The search list a candidate is an entry of, or empty.
inline std::string_view list_of(const candidate& c) { return c.list ? std::string_view(c.list) : list_of_rule(c.rule); }

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

  // Entry `index` of the search list `list` (a string literal).
  void add_list_entry(const char* list, std::size_t index, std::string_view dir, entry_kind kind) {
    std::string path = kind == entry_kind::absolute ? join_path(dir, file_name_) : std::string(dir);
    items_.push_back({{}, std::move(path), kind, list, index});
  }

  void add_list(const char* list, const char* value) {
    if (!value) return;
    std::string_view text(value);
    items_.reserve(items_.size() + 1 + std::size_t(std::count(text.begin(), text.end(), platform::list_separator)));
    std::size_t i = 0;
    for_each_path_entry(text, [&](std::string_view dir, entry_kind kind) { add_list_entry(list, i++, dir, kind); });
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
  std::vector<std::string> names;
  for (std::string& name : platform::list_folder(folder, prefix)) {
    const char* number = name.c_str() + prefix.size();
    if (name.size() > prefix.size() && *number >= '0' && *number <= '9') names.push_back(std::move(name));
  }
  sort_by_number_after(names, prefix.size());
  return names;
}

// Files already seen in one search: by identity (links followed) where the file exists, else by
// path. Hash sets, so a search stays linear in the number of candidates, whatever their count.
class seen_files {
 public:
  // True the first time a file is offered.
  bool first_time(const platform::file_identity& id, const std::string& path) {
    return id.known() ? first_identity(id) : first_text(path);
  }

  // True the first time this text is offered: a path met again is the same file again, known
  // before any system call (a search list that repeats one folder thousands of times).
  bool first_text(const std::string& path) { return texts_.insert(path).second; }

  bool first_identity(const platform::file_identity& id) { return identities_.insert({id.device, id.inode}).second; }

 private:
  struct identity_hash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& id) const {
      return std::hash<std::uint64_t>()(id.second * 0x9e3779b97f4a7c15ull ^ id.first);
    }
  };
  std::unordered_set<std::string> texts_;
  std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, identity_hash> identities_;
};

// What one search looks for: a library's file of one major, for programs of one CUDA major (which
// toolkit folders and pip packages hold their builds). The loader's is the compiled headers'
// (target_of); a tool can ask what a program built with other headers would find.
struct search_target {
  const library_descriptor* d;
  std::string file_name;                  // libcudnn.so.9
  int major = 0;                          // the library's own major of that file
  int cuda_major = 0;                     // the CUDA major of the program
  std::vector<std::string> pip_packages;  // site-packages/nvidia/<package>: "cu<cuda major>" for this CUDA major
};

// The target of `major` of the library, for programs of `cuda_major`.
inline search_target target_for(const library_descriptor& d, int major, int cuda_major) {
  search_target t{&d, file_name_for_major(d, major), major, cuda_major, {}};
  for (const char* package : d.pip_packages) {
    std::string name = package;
    bool per_cuda = name.size() > 2 && name.compare(0, 2, "cu") == 0 &&
                    name.find_first_not_of("0123456789", 2) == std::string::npos;  // nvidia/cu13
    t.pip_packages.push_back(per_cuda ? "cu" + std::to_string(cuda_major) : name);
  }
  return t;
}

// What the loader searches for: the file of its headers' major.
inline search_target target_of(const library_descriptor& d) {
  return target_for(d, d.compiled_major, compiled_cuda_major());
}

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
  for (const std::string& dir : *in.search_dirs)
    list.add_list_entry("options.search_dirs", i++, dir, kind_of_entry(dir));
  list.add_list("CUSHIM_SEARCH_PATH", in.variable("CUSHIM_SEARCH_PATH"));
  std::string exe_dir = parent_dir(in.executable_path);
  if (!exe_dir.empty()) list.add_dir("executable's folder", exe_dir);
  std::string module_dir = parent_dir(in.module_path);
  if (!module_dir.empty() && module_dir != exe_dir) list.add_dir("cushim module's folder", module_dir);
}

}  // namespace
}  // namespace detail
}  // namespace cushim
