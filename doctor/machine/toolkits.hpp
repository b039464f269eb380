// The CUDA toolkits: those in the installers' places, those CUDA_PATH, CUDA_HOME and every
// CUDA_PATH_V<x>_<y> name, and the one of the first nvcc on PATH; each with its version from its
// own files, what selects it, and a cuDNN copied into it. A variable naming a folder that is gone
// or that holds no toolkit, and the variables and PATH disagreeing, are problems of the machine.
#pragma once

#include <string>
#include <vector>

#include "context.hpp"
#include "cudnn_files.hpp"
#include "text_values.hpp"
#include "layout.hpp"
#include "../words/toolkits.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t toolkits_limit = 64;

// "13.0" from "cuda-13.0" or "v13.0"; empty for any other name.
inline std::string version_in_folder_name(const std::string& name) {
  std::size_t start = name.find_first_of("0123456789");
  if (start == std::string::npos || (name.compare(0, 5, "cuda-") != 0 && name[0] != 'v')) return {};
  std::vector<int> parts;
  if (start != (name[0] == 'v' ? 1u : 5u) || !version_numbers(name.substr(start), parts)) return {};
  return name.substr(start);
}

// The version a toolkit's own files give, with where it came from; each file that could not
// tell is noted.
inline void read_toolkit_version(const std::string& root, machine::toolkit& t) {
  text_file json = read_text(join_path(root, "version.json"));
  if (json.ok()) {
    t.version = version_json_cuda(json.text);
    if (json.truncated()) t.notes.push_back(json.truncation_note());
    if (!t.version.empty()) return void(t.version_source = "version.json");
    t.notes.push_back(words::no_cuda_version_entry(json.path));
  } else if (json.exists()) {
    t.notes.push_back(words::cannot_be_read(json.path, json.error));
  }
  text_file txt = read_text(join_path(root, "version.txt"));
  if (txt.ok()) {
    t.version = version_txt_cuda(txt.text);
    if (!t.version.empty()) return void(t.version_source = "version.txt");
    t.notes.push_back(words::no_cuda_version_line(txt.path));
  }
  std::string why = words::version_files_silent(json.exists() || txt.exists());
  std::vector<std::string> ignored;
  for (const std::string& name : names_starting(join_path(root, "dist-info"), "nvidia_cuda_runtime-", ignored)) {
    std::string version = name.substr(
        20, name.find(".dist-info") == std::string::npos ? std::string::npos : name.find(".dist-info") - 20);
    if (cuda_minor_key(version)) {
      t.version = leading_parts(version, 2);
      t.version_source = words::version_from_runtime_record(name);
      t.notes.push_back(words::version_from_runtime_record_note(why, name));
      return;
    }
  }
  for (const std::string& dir : platform::toolkit_library_dirs(root)) {
    for (const std::string& name : names_starting(dir, platform::cudart_file_prefix, ignored)) {
      std::string version = platform::version_in_file_name(join_path(dir, name));
      if (version.empty()) continue;
      t.version = leading_parts(version, 2);
      std::string file_text = platform::version_file_text(join_path(dir, name));
      t.version_source = words::version_from_runtime_file(file_text);
      t.notes.push_back(words::version_from_runtime_file_note(why, file_text));
      return;
    }
  }
  std::string folder = version_in_folder_name(file_name_of(t.resolved_path.empty() ? root : t.resolved_path));
  if (!folder.empty()) {
    t.version = folder;
    t.version_source = words::folder_name_source();
    t.notes.push_back(words::version_from_folder_name_note(why));
    return;
  }
  t.notes.push_back(words::version_unknown_note(why));
}

// Whether a folder holds a toolkit: its nvcc, a version file, or the runtime's header.
inline bool looks_like_toolkit(const std::string& root) {
  for (const std::string& file :
       {join_path(join_path(root, "bin"), platform::nvcc_file), join_path(root, "version.json"),
        join_path(root, "version.txt"), join_path(join_path(root, "include"), "cuda_runtime_api.h")}) {
    if (platform::check_path(file).kind == platform::path_kind::file) return true;
  }
  return false;
}

// A toolkit candidate and how it was found.
struct toolkit_candidate {
  std::string path;
  std::string found_by;
  bool selects = false;  // CUDA_PATH, CUDA_HOME, the first nvcc on PATH: what build tools use
};

// The folder of the first nvcc on PATH, as a shell finds it; empty when there is none.
inline std::string first_nvcc(const context& ctx, std::vector<std::string>& notes) {
  for (const std::string& dir : absolute_entries(ctx, "PATH", notes)) {
    std::string nvcc = join_path(dir, platform::nvcc_file);
    if (platform::is_executable_file(nvcc)) return nvcc;
  }
  return {};
}

inline void find_toolkits(const context& ctx, machine::findings& f) {
  std::vector<toolkit_candidate> candidates;
  for (const located_folder& l : platform::toolkit_folders(ctx, f.notes)) {
    candidates.push_back({l.path, l.found_by, false});
  }
  std::vector<std::pair<std::string, std::string>> variables;  // name, value: checked once the toolkits are known
  std::vector<std::string> names = {"CUDA_PATH", "CUDA_HOME"};
  for (const std::string& name : ctx.names_starting("CUDA_PATH_V")) names.push_back(name);
  for (const std::string& name : names) {
    std::string value = ctx.env_value(name);
    if (value.empty()) continue;
    variables.emplace_back(name, value);
    if (platform::check_path(value).kind == platform::path_kind::folder) {
      candidates.push_back({value, name, name == "CUDA_PATH" || name == "CUDA_HOME"});
    }
  }
  std::string nvcc = first_nvcc(ctx, f.notes);
  if (!nvcc.empty()) candidates.push_back({parent_dir(parent_dir(nvcc)), "nvcc on PATH", true});

  std::vector<platform::file_identity> identities;
  for (const toolkit_candidate& c : candidates) {
    if (platform::check_path(c.path).kind == platform::path_kind::loop) {
      add_unique(f.notes, words::not_examined(c.path, c.found_by, words::symbolic_link_loop()));
      continue;
    }
    platform::file_identity id = platform::identity_of(c.path);
    machine::toolkit* same = nullptr;
    for (std::size_t i = 0; i < f.toolkits.size(); ++i) {
      if (id.known() && identities[i] == id) same = &f.toolkits[i];
    }
    if (!same) {
      if (f.toolkits.size() >= toolkits_limit) {
        add_unique(f.notes, words::more_toolkits_than(toolkits_limit));
        continue;
      }
      f.toolkits.emplace_back();
      identities.push_back(id);
      same = &f.toolkits.back();
      same->path = c.path;
      std::string real = platform::canonical_path(c.path);
      if (real != c.path) same->resolved_path = real;
    }
    add_unique(same->found_by, c.found_by);
    if (c.selects) add_unique(same->selected_by, c.found_by);
  }

  for (machine::toolkit& t : f.toolkits) {
    read_toolkit_version(t.path, t);
    std::string nvcc_path = join_path(join_path(t.path, "bin"), platform::nvcc_file);
    if (platform::is_executable_file(nvcc_path)) t.nvcc = nvcc_path;
    machine::cudnn_install c;
    if (find_cudnn(platform::toolkit_header_dirs(t.path), platform::toolkit_library_dirs(t.path),
                   words::copied_into_toolkit(), c, t.notes)) {
      t.cudnn.push_back(c);
    }
  }

  std::string installed;
  for (const machine::toolkit& t : f.toolkits) {
    if (looks_like_toolkit(t.path)) installed += (installed.empty() ? "" : ", ") + t.path;
  }
  for (const auto& v : variables) {
    platform::path_check c = platform::check_path(v.second);
    std::string which = c.kind == platform::path_kind::absent   ? words::removed_toolkit()
                        : c.kind != platform::path_kind::folder ? words::which_is_not_a_folder(c.detail)
                        : !looks_like_toolkit(v.second)         ? words::holds_no_toolkit(platform::nvcc_file)
                                                                : std::string();
    if (!which.empty()) f.problems.push_back(words::variable_names_no_toolkit(v.first, v.second, which, installed));
  }
}

// The cuDNN a source build is pointed at: CUDNN_PATH (a root with include/ and its libraries),
// or CUDNN_INCLUDE_DIR and CUDNN_LIBRARY (a folder, or the library file itself: on Windows the
// import library, lib\x64\cudnn.lib, whose DLLs are in bin beside lib). Each of the two is
// checked alone too: a folder without cuDNN's header, a library that leads to no cuDNN.
inline void find_cudnn_variables(const context& ctx, machine::findings& f) {
  auto missing = [&](const std::string& name, const std::string& value, const std::string& which) {
    f.problems.push_back(words::variable_names_no_cudnn(name, value, which));
  };
  std::string root = ctx.env_value("CUDNN_PATH");
  if (!root.empty()) {
    machine::cudnn_install c;
    std::vector<std::string> libs = platform::toolkit_library_dirs(root);
    libs.push_back(join_path(root, "lib"));
    if (platform::check_path(root).kind != platform::path_kind::folder) {
      missing("CUDNN_PATH", root, words::which_does_not_exist());
    } else if (find_cudnn({join_path(root, "include")}, libs, "CUDNN_PATH", c, f.notes)) {
      f.cudnn.push_back(c);
    } else {
      missing("CUDNN_PATH", root, words::holds_no_cudnn(platform::cudnn_main_file(9), platform::cudnn_main_file(8)));
    }
  }
  std::string include = ctx.env_value("CUDNN_INCLUDE_DIR"), library = ctx.env_value("CUDNN_LIBRARY");
  if (include.empty() && library.empty()) return;
  std::vector<std::string> header_dirs, library_dirs;
  if (!include.empty()) {
    std::string header;
    std::vector<std::string> ignored;
    if (platform::check_path(include).kind != platform::path_kind::folder) {
      missing("CUDNN_INCLUDE_DIR", include, words::which_does_not_exist());
    } else if (cudnn_header_version(include, header, ignored), header.empty()) {
      missing("CUDNN_INCLUDE_DIR", include, words::holds_no_cudnn_header());
    } else {
      header_dirs.push_back(include);
    }
  }
  if (!library.empty()) {
    platform::path_kind kind = platform::check_path(library).kind;
    machine::cudnn_install alone;
    std::vector<std::string> ignored;
    if (kind != platform::path_kind::folder && kind != platform::path_kind::file) {
      missing("CUDNN_LIBRARY", library, words::which_does_not_exist());
    } else if (!find_cudnn({}, platform::cudnn_library_dirs(library), "CUDNN_LIBRARY", alone, ignored)) {
      std::string dirs = joined(platform::cudnn_library_dirs(library));
      missing("CUDNN_LIBRARY", library,
              words::leads_to_no_cudnn(platform::cudnn_main_file(9), platform::cudnn_main_file(8), dirs));
    } else {
      library_dirs = platform::cudnn_library_dirs(library);
    }
  }
  machine::cudnn_install c;
  std::string by = include.empty()   ? "CUDNN_LIBRARY"
                   : library.empty() ? "CUDNN_INCLUDE_DIR"
                                     : "CUDNN_INCLUDE_DIR and CUDNN_LIBRARY";
  if ((!header_dirs.empty() || !library_dirs.empty()) && find_cudnn(header_dirs, library_dirs, by, c, f.notes)) {
    f.cudnn.push_back(c);
  }
}

// The cuDNN a build with a toolkit that has none in it finds: its headers and library where the
// build variables point (CUDNN_INCLUDE_DIR, CUDNN_LIBRARY, CUDNN_PATH), else where the compiler and
// the linker look by default (platform::build_cudnn_places).
inline void find_build_cudnn(const context& ctx, machine::findings& f) {
  std::vector<std::string> headers, libraries;
  if (std::string dir = ctx.env_value("CUDNN_INCLUDE_DIR"); !dir.empty()) headers.push_back(dir);
  if (std::string file = ctx.env_value("CUDNN_LIBRARY"); !file.empty()) {
    for (const std::string& dir : platform::cudnn_library_dirs(file)) libraries.push_back(dir);
  }
  if (std::string root = ctx.env_value("CUDNN_PATH"); !root.empty()) {
    headers.push_back(join_path(root, "include"));
    for (const std::string& dir : platform::toolkit_library_dirs(root)) libraries.push_back(dir);
  }
  platform::build_cudnn_places(ctx, headers, libraries);
  for (machine::toolkit& t : f.toolkits) {
    machine::cudnn_install c;
    if (t.cudnn.empty() && find_cudnn(headers, libraries, words::build_with_this_toolkit(), c, t.notes)) {
      t.build_cudnn.push_back(c);
    }
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
