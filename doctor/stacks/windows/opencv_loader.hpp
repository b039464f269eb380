// Windows: OpenCV's cv2 as its own loader (cv2/__init__.py, which OpenCV generates) loads it: each
// folder of config.py's BINARIES_PATHS (its build's bin and, for a CUDA build, CUDA's:
// os.path.join(os.getenv('CUDA_PATH', '<the toolkit it was built with>'), 'bin')) is added with
// os.add_dll_directory and put first on PATH, then the native module (cv2.pyd of pip's wheels,
// python-3.X\cv2*.pyd of a source build) is loaded as an extension module. Its imports (and
// opencv_world's or opencv_core's) reaching CUDA's libraries make it a CUDA build; then cuDNN's
// own by-name loads, as for the other frameworks.
#pragma once

#include <string>
#include <vector>

#include "process_loads.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The values of config.py's BINARIES_PATHS as OpenCV writes them: strings, LOADER_DIR (cv2's own
// folder), os.path.join(...), os.getenv('NAME', 'default') and os.environ.get(...).
class opencv_config {
 public:
  opencv_config(const discovery::context& ctx, std::string loader_dir)
      : ctx_(ctx), loader_dir_(std::move(loader_dir)) {}

  // The list after "BINARIES_PATHS = [": each value, or false at the first that is none of those.
  bool binaries_paths(std::string_view text, std::vector<std::string>& out, std::string& unread) {
    std::size_t at = 0;
    for (;; at += 14) {  // the assignment: BINARIES_PATHS followed by '=', not '=='
      at = text.find("BINARIES_PATHS", at);
      if (at == std::string_view::npos) return true;
      std::size_t equals = text.find_first_not_of(" \t", at + 14);
      if (equals != std::string_view::npos && text[equals] == '=' && text.compare(equals, 2, "==") != 0) {
        at_ = equals + 1;
        break;
      }
    }
    s_ = text;
    space();
    if (!take('[')) return unread = "BINARIES_PATHS", false;
    while (space(), !take(']')) {
      std::size_t start = at_;
      std::string value;
      if (!expression(value, 0)) {
        std::string_view rest = s_.substr(start);
        unread = std::string(rest.substr(0, rest.find_first_of(",]\n")));
        return false;
      }
      out.push_back(value);
      space();
      take(',');
    }
    return true;
  }

 private:
  void space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) ++at_;
  }
  bool take(char c) { return at_ < s_.size() && s_[at_] == c ? (++at_, true) : false; }
  bool word(std::string_view w) {
    if (s_.compare(at_, w.size(), w) != 0) return false;
    at_ += w.size();
    return true;
  }

  // The arguments of a call, after its '('.
  bool arguments(std::vector<std::string>& args, int depth) {
    while (space(), !take(')')) {
      std::string value;
      if (!expression(value, depth + 1)) return false;
      args.push_back(value);
      space();
      take(',');
    }
    return true;
  }

  // ntpath.join: an absolute part starts over; '/' and '\' both separate.
  static std::string joined_path(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) {
      std::string part = native_separators(p);
      if (is_absolute_path(part) || out.empty()) {
        out = part;
      } else {
        out += (out.back() == '\\' ? "" : "\\") + part;
      }
    }
    return discovery::lexically_normal(out);
  }

  bool expression(std::string& out, int depth) {
    space();
    if (depth > 16 || at_ >= s_.size()) return false;
    std::string_view rest;
    if (s_[at_] == 'r' && at_ + 1 < s_.size() && (s_[at_ + 1] == '\'' || s_[at_ + 1] == '"')) ++at_;
    if (discovery::read_quoted(s_.substr(at_), out, rest)) return at_ = s_.size() - rest.size(), true;
    if (word("LOADER_DIR")) return out = loader_dir_, true;
    std::vector<std::string> args;
    if (word("os.path.join(")) {
      if (!arguments(args, depth) || args.empty()) return false;
      return out = joined_path(args), true;
    }
    if (word("os.getenv(") || word("os.environ.get(")) {
      if (!arguments(args, depth) || args.empty()) return false;
      const char* value = ctx_.env(args[0]);
      return out = value ? value : args.size() > 1 ? args[1] : std::string(), true;
    }
    return false;
  }

  const discovery::context& ctx_;
  std::string loader_dir_;
  std::string_view s_;
  std::size_t at_ = 0;
};

// The native module of a source build: python-3.X\cv2*.pyd for this environment's Python.
inline std::string opencv_source_build_module(const std::string& cv2, const machine::environment& env) {
  std::vector<std::string> ignored;
  std::string folder = join_path(cv2, "python-" + discovery::leading_parts(env.python_version, 2));
  for (const std::string& name : discovery::names_starting(folder, "cv2", ignored)) {
    if (ends_ignoring_case(name, ".pyd")) return join_path(folder, name);
  }
  return {};
}

// "4.8.0" from opencv_world480.dll or opencv_core480.dll; empty for another name.
inline std::string opencv_version_in_name(const std::string& name) {
  for (const char* prefix : {"opencv_world", "opencv_core"}) {
    if (!starts_ignoring_case(name, prefix)) continue;
    std::string digits = name.substr(std::char_traits<char>::length(prefix), 3);
    if (digits.size() == 3 && digits.find_first_not_of("0123456789") == std::string::npos) {
      return digits.substr(0, 1) + "." + digits.substr(1, 1) + "." + digits.substr(2, 1);
    }
  }
  return {};
}

inline void simulate_opencv(const loader_input& in, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::string cv2 = join_path(in.site.dir, "cv2");
  std::vector<std::string> binaries;
  discovery::text_file config = discovery::read_text(join_path(cv2, "config.py"));
  std::string unread;
  if (config.ok() && !opencv_config(in.ctx, cv2).binaries_paths(config.text, binaries, unread)) {
    fw.notes.push_back(discovery::words::binaries_path_unread(config.path, unread));
  }
  std::vector<std::string> ignored, user_dirs, path_dirs;
  for (const std::string& dir : binaries) {
    if (check_path(dir).kind == path_kind::folder) {
      user_dirs.push_back(dir);
    } else {
      fw.notes.push_back(discovery::words::binaries_path_missing(config.path, dir));
    }
    path_dirs.push_back(dir);
  }
  for (const std::string& dir : discovery::absolute_entries(in.ctx, "PATH", ignored)) path_dirs.push_back(dir);
  if (fw.native_file.empty()) fw.native_file = opencv_source_build_module(cv2, in.env);
  if (fw.native_file.empty()) {
    fw.notes.push_back(discovery::words::no_native_module(cv2));
    return;
  }
  dependency_resolver resolver(process_view{application_folder(in.env), user_dirs, path_dirs, {}});
  discovery::import_walk walk = discovery::walk_imports(resolver, fw.native_file, load_kind::by_path);
  discovery::build_from_loaded_files(walk, fw);
  for (const auto& f : walk.found) {
    if (fw.version.empty() && !opencv_version_in_name(f.first).empty()) {
      fw.version = opencv_version_in_name(f.first), fw.version_source = discovery::words::name_of(f.first);
    }
  }
  extension_fails(resolver, found);
  if (!fw.problems.empty()) {
    if (!walk.missing.empty() && discovery::is_cuda_library_file(walk.missing.front().name)) {
      fw.problems.front().fix = discovery::words::opencv_cuda_fix(walk.missing.front().name, config.path, binaries);
    }
    return;
  }
  discovery::add_known_loads(walk, in.wheels, fw);
  std::vector<std::string> loaded;
  add_closure(resolver, fw.native_file, load_kind::by_path, loaded);
  resolver.assume_loaded(loaded);
  check_cudnn(in, resolver, {}, "", found);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
