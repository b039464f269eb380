// The ordered list of places to look for a library (README.md, "Search order"). Builds paths
// only; library.hpp tries them. The explicit override and the already-loaded copy come first
// and are handled there.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ld_so_cache.hpp"
#include "library_spec.hpp"
#include "path_list.hpp"
#include "platform.hpp"

namespace cushim {
namespace detail {

struct candidate {
  std::string rule;  // which rule produced it, e.g. "CUDNN_PATH/lib64"
  std::string path;  // the file to try, or the raw entry when kind is not absolute
  entry_kind kind;
};

// The folders glibc's loader searches after LD_LIBRARY_PATH and the cache.
inline std::vector<std::string> system_library_dirs() {
#if defined(__x86_64__)
  const char* triplet = "x86_64-linux-gnu";
#elif defined(__aarch64__)
  const char* triplet = "aarch64-linux-gnu";
#else
  const char* triplet = nullptr;
#endif
  std::vector<std::string> dirs;
  if (triplet) {
    dirs.push_back(std::string("/lib/") + triplet);
    dirs.push_back(std::string("/usr/lib/") + triplet);
  }
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) dirs.emplace_back(d);
  return dirs;
}

// Versioned toolkit folders such as /usr/local/cuda-13.0, newest minor first.
inline std::vector<std::string> versioned_cuda_roots(int major) {
  std::string prefix = "cuda-" + std::to_string(major) + ".";
  std::vector<std::pair<int, std::string>> found;
  for (const std::string& name : platform::list_folder("/usr/local")) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    found.emplace_back(std::atoi(name.c_str() + prefix.size()), "/usr/local/" + name);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> roots;
  for (auto& f : found) roots.push_back(std::move(f.second));
  return roots;
}

class candidate_list {
 public:
  explicit candidate_list(std::string file_name) : file_name_(std::move(file_name)) {}

  void add_dir(std::string rule, const std::string& dir) {
    entry_kind kind = dir.empty()             ? entry_kind::empty
                      : is_absolute_path(dir) ? entry_kind::absolute
                                              : entry_kind::relative;
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

  // <root>, <root>/lib64, <root>/lib for an install-root variable.
  void add_root(const char* variable, const char* value) {
    if (!value) return;
    std::string rule = variable;
    add_dir(rule, value);
    if (!is_absolute_path(value)) return;  // reported once above
    add_dir(rule + "/lib64", join_path(value, "lib64"));
    add_dir(rule + "/lib", join_path(value, "lib"));
  }

#ifdef _WIN32
  // The bare name, loaded through LOAD_LIBRARY_SEARCH_DEFAULT_DIRS.
  void add_default_dirs(std::string rule) { items_.push_back({std::move(rule), file_name_, entry_kind::default_dirs}); }
#endif

  std::vector<candidate> take() { return std::move(items_); }

 private:
  std::string file_name_;
  std::vector<candidate> items_;
};

struct search_inputs {
  const std::vector<std::string>* search_dirs;
  bool use_environment;
  std::string executable_path;
  std::string module_path;  // the executable or shared library that holds cushim
};

// pip wheels: <prefix>/lib/python3.X/site-packages/nvidia/<package>/lib
inline void add_pip_layouts(candidate_list& list, const char* variable, const char* prefix,
                            const std::vector<const char*>& packages) {
  if (!prefix || !is_absolute_path(prefix)) return;
  std::string lib = join_path(prefix, "lib");
  std::vector<std::string> pythons = platform::list_folder(lib);
  std::sort(pythons.begin(), pythons.end());
  for (const std::string& py : pythons) {
    if (py.compare(0, 7, "python3") != 0) continue;
    for (const char* package : packages) {
      std::string dir = join_path(join_path(join_path(join_path(lib, py), "site-packages/nvidia"), package), "lib");
      if (platform::is_folder(dir)) list.add_dir(std::string(variable) + " pip nvidia/" + package, dir);
    }
  }
}

// Rules 3 and 4 of both platforms: the caller's folders, CUSHIM_SEARCH_PATH, the executable's
// folder and that of the module holding cushim.
inline void add_leading_rules(candidate_list& list, const search_inputs& in) {
  std::size_t i = 0;
  for (const std::string& dir : *in.search_dirs) list.add_dir("options.search_dirs[" + std::to_string(i++) + "]", dir);
  if (in.use_environment) list.add_list("CUSHIM_SEARCH_PATH", platform::get_environment("CUSHIM_SEARCH_PATH"));
  std::string exe_dir = parent_dir(in.executable_path);
  if (!exe_dir.empty()) list.add_dir("executable's folder", exe_dir);
  std::string module_dir = parent_dir(in.module_path);
  if (!module_dir.empty() && module_dir != exe_dir) list.add_dir("cushim module's folder", module_dir);
}

#ifndef _WIN32
inline std::vector<candidate> search_candidates(const library_spec& spec, const search_inputs& in) {
  candidate_list list(spec.file_name);
  add_leading_rules(list, in);
  auto env = [&](const char* name) { return in.use_environment ? platform::get_environment(name) : nullptr; };

  for (const char* variable : spec.home_variables) list.add_root(variable, env(variable));
  if (const char* conda = env("CONDA_PREFIX"); conda && is_absolute_path(conda)) {
    list.add_dir("CONDA_PREFIX/lib", join_path(conda, "lib"));
  }
  add_pip_layouts(list, "VIRTUAL_ENV", env("VIRTUAL_ENV"), spec.pip_packages);
  add_pip_layouts(list, "CONDA_PREFIX", env("CONDA_PREFIX"), spec.pip_packages);

  // The system's own search by soname, done here so the file is loaded by absolute path and an
  // empty or relative LD_LIBRARY_PATH entry can never make it the current directory.
  list.add_list("LD_LIBRARY_PATH", platform::get_environment("LD_LIBRARY_PATH"));
  for (std::string& path : ld_so_cache_paths(system_ld_so_cache(), spec.file_name)) {
    list.add_file("ld.so.cache", std::move(path));
  }
  for (const std::string& dir : system_library_dirs()) list.add_dir("system folder", dir);

  for (const std::string& root : versioned_cuda_roots(spec.compiled_major)) {
    list.add_dir(root.substr(11) + " (well-known)", join_path(root, "lib64"));
    list.add_dir(root.substr(11) + " (well-known)", join_path(root, "lib"));
  }
  list.add_dir("/usr/local/cuda (well-known)", "/usr/local/cuda/lib64");
  list.add_dir("/usr/local/cuda (well-known)", "/usr/local/cuda/lib");
  return list.take();
}
#endif

}  // namespace detail
}  // namespace cushim

#ifdef _WIN32
#include "search_win32.hpp"
#endif
