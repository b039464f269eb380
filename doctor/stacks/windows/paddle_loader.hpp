// Windows: Paddle's loads. paddle/base/core.py puts paddle\base and paddle\libs first on PATH,
// adds paddle\libs with os.add_dll_directory and imports libpaddle.pyd as an extension module; at
// its first GPU call Paddle loads cudnn64_<major>.dll itself (phi/backends/dynload/
// dynamic_loader.cc): from FLAGS_cudnn_dir, else by bare name with plain LoadLibrary (the
// application's folder, System32, the Windows folder, that PATH), else from the bin folder of the
// toolkit it was built with (CUDA_TOOLKIT_ROOT_DIR: NVIDIA's default install of its CUDA,
// %ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\v<cuda>, for the official wheels).
#pragma once

#include <string>
#include <vector>

#include "process_loads.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// Paddle's cuDNN by its own search: its path, or empty with `searched` saying where it looked.
inline std::string paddle_cudnn(const loader_input& in, const dependency_resolver& resolver, const std::string& name,
                                const std::string& toolkit_bin, std::vector<std::string>& searched) {
  std::string flag = in.ctx.env_value("FLAGS_cudnn_dir");
  if (!flag.empty()) {
    std::string path = join_path(flag, name);
    if (check_path(path).kind == path_kind::file) return path;
    searched.push_back(flag + " (FLAGS_cudnn_dir)");
  }
  std::string path = discovery::locate_and_say(resolver, name, "", searched, load_kind::by_name);
  if (!path.empty() || toolkit_bin.empty()) return path;
  path = join_path(toolkit_bin, name);
  if (check_path(path).kind == path_kind::file) return path;
  searched.push_back(discovery::words::built_with_toolkit(toolkit_bin));
  return {};
}

inline void simulate_paddle(const loader_input& in, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  std::string paddle = join_path(in.site.dir, "paddle");
  std::string libs = join_path(paddle, "libs");
  std::string base = fw.native_file.empty() ? join_path(paddle, "base") : parent_dir(fw.native_file);
  std::vector<std::string> ignored, user_dirs;
  if (check_path(libs).kind == path_kind::folder) user_dirs.push_back(libs);
  std::vector<std::string> path_dirs = {base, libs};
  for (const std::string& dir : discovery::absolute_entries(in.ctx, "PATH", ignored)) path_dirs.push_back(dir);
  dependency_resolver resolver(process_view{application_folder(in.env), user_dirs, path_dirs, {}});
  std::vector<std::string> loaded;
  if (!fw.native_file.empty()) {
    extension_fails(resolver, found);
    if (!fw.problems.empty()) return;
    add_closure(resolver, fw.native_file, load_kind::by_path, loaded);
    resolver.assume_loaded(loaded);
  }
  std::vector<int> release;
  if (fw.build != "cuda" || !discovery::version_numbers(fw.cudnn + ".0", release)) return;
  std::string name = cudnn_main_file(release[0]);
  std::string program_files = in.ctx.env_value("ProgramFiles");
  std::string toolkit_bin = program_files.empty() || fw.cuda.empty()
                                ? std::string()
                                : join_path(program_files, "NVIDIA GPU Computing Toolkit\\CUDA\\v" + fw.cuda + "\\bin");
  std::vector<std::string> searched;
  std::string path = paddle_cudnn(in, resolver, name, toolkit_bin, searched);
  if (path.empty()) {
    fw.problems.push_back(discovery::words::paddle_cudnn_not_found(fw, name, searched));
    return;
  }
  add_by_name_load(in, resolver, name, path, loaded, fw);
  check_cudnn(in, resolver, {}, "", found);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
