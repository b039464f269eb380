// Windows: where NVIDIA's DLLs are besides toolkits and Python environments: each folder on PATH
// (where a cuDNN archive's bin is put), System32 (the driver's nvcuda.dll and nvml.dll), and the
// folders cuDNN's own installer uses (%ProgramFiles%\NVIDIA\CUDNN\v*\bin\<CUDA>[\x64]).
#pragma once

#include <string>
#include <vector>

#include "../../machine/context.hpp"
#include "../library_names.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::vector<discovery::located_folder> system_library_places(const discovery::context& ctx, std::string_view,
                                                                    std::vector<std::string>& notes) {
  std::vector<discovery::located_folder> places;
  for (const std::string& dir : discovery::absolute_entries(ctx, "PATH", notes)) places.push_back({dir, "PATH"});
  if (std::string windows = ctx.env_value("SystemRoot"); !windows.empty()) {
    places.push_back({join_path(windows, "System32"), "System32"});
  }
  if (std::string program_files = ctx.env_value("ProgramFiles"); !program_files.empty()) {
    std::string cudnn = join_path(join_path(program_files, "NVIDIA"), "CUDNN");
    for (const std::string& v : discovery::names_starting(cudnn, "v", notes)) {
      std::string bin = join_path(join_path(cudnn, v), "bin");
      places.push_back({bin, "cuDNN's installer"});
      for (const std::string& cuda : discovery::names_starting(bin, "", notes)) {
        places.push_back({join_path(bin, cuda), "cuDNN's installer"});
        places.push_back({join_path(join_path(bin, cuda), "x64"), "cuDNN's installer"});
      }
    }
  }
  return places;
}

// Where an nvidia-* wheel's package folder keeps its DLLs: bin, and bin\x86_64 for CUDA 13's.
inline std::vector<std::string> wheel_library_dirs(const std::string& package) {
  std::string bin = join_path(package, "bin");
  return {bin, join_path(bin, "x86_64")};
}

// Where a conda environment keeps the DLLs its packages install.
inline std::vector<std::string> environment_library_dirs(const std::string& prefix) {
  return {join_path(join_path(prefix, "Library"), "bin")};
}

// The toolkit has no link-time stub DLL and no compatibility package on Windows.
inline std::vector<std::string> toolkit_special_dirs(const std::string&) { return {}; }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
