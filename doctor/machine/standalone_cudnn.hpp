// A cuDNN unpacked by hand, outside every toolkit and environment, found through the folders of
// the variable programs find it by (Windows: PATH, and the registry's PATH a program started after
// the last change would have; layout.hpp), whatever cuDNN this doctor was built with: NVIDIA's
// archive in C:\cudnn\8.5.0.96\cuda with bin\ on PATH, its headers in include\ and its import
// library in lib\x64\ beside it. Each is a cuDNN of findings.cudnn, checked as the build
// variables' are.
#pragma once

#include <string>
#include <vector>

#include "context.hpp"
#include "cudnn_files.hpp"
#include "layout.hpp"
#include "../words/saved_environment.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// Whether `path` is `root` or inside it (names compared as the platform does).
inline bool is_within(const std::string& path, const std::string& root) {
  if (root.empty() || path.size() < root.size()) return false;
  std::string head = path.substr(0, root.size());
  bool same = platform::windows_names ? pe_format::same_name_ignoring_case(head, root) : head == root;
  return same && (path.size() == root.size() || path[root.size()] == '/' || path[root.size()] == '\\');
}

// Whether a folder belongs to something discovery examines in its own way: a toolkit (its bin, a
// cuDNN copied in) or an environment (conda's Library\bin, torch\lib).
inline bool owned_folder(const machine::findings& f, const std::string& dir) {
  for (const machine::toolkit& t : f.toolkits) {
    if (is_within(dir, t.path) || is_within(dir, t.resolved_path)) return true;
  }
  for (const machine::environment& e : f.environments) {
    if (is_within(dir, e.path)) return true;
  }
  return false;
}

// Each folder of the variable in this process, then `saved_only` (the folders the saved variable
// has and this process lacks), that holds a cuDNN of no toolkit and no environment.
inline void find_standalone_cudnn(const context& ctx, const std::vector<std::string>& saved_only,
                                  machine::findings& f) {
  if (!platform::standalone_cudnn_variable) return;
  std::string variable = platform::standalone_cudnn_variable;
  std::vector<std::string> ignored;
  std::vector<located_folder> dirs;
  for (const std::string& dir : absolute_entries(ctx, variable.c_str(), ignored)) dirs.push_back({dir, variable});
  for (const std::string& dir : saved_only) dirs.push_back({dir, words::in_registry_only(variable)});
  for (const located_folder& d : dirs) {
    if (owned_folder(f, d.path)) continue;
    bool has_main = false;
    for (int major : {9, 8, 7}) {
      has_main = has_main || platform::check_path(join_path(d.path, platform::cudnn_main_file(major))).kind ==
                                 platform::path_kind::file;
    }
    if (!has_main) continue;
    bool known = false;
    for (const machine::cudnn_install& c : f.cudnn) {
      known = known || (!c.library.empty() && parent_dir(c.library) == d.path);
    }
    machine::cudnn_install c;
    if (known || !find_cudnn({join_path(parent_dir(d.path), "include")}, {d.path}, d.found_by, c, f.notes)) continue;
    f.cudnn.push_back(c);
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
