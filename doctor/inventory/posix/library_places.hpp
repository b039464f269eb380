// Linux: where the system puts NVIDIA's libraries, besides toolkits and Python environments: the
// folders LD_LIBRARY_PATH names, those /etc/ld.so.cache lists one in, the system folders, the
// NVIDIA container toolkit's mount and WSL's driver folder; and a toolkit's link-time stubs and
// its forward-compatibility package.
#pragma once

#include <cushim/detail/search/posix/dependencies.hpp>
#include <cushim/detail/search/posix/ld_so_cache.hpp>

#include <string>
#include <vector>

#include "../../machine/context.hpp"
#include "../library_names.hpp"
#include "../../words/inventory.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::vector<discovery::located_folder> system_library_places(const discovery::context& ctx,
                                                                    std::string_view cache,
                                                                    std::vector<std::string>& notes) {
  std::vector<discovery::located_folder> places;
  for (const std::string& dir : discovery::absolute_entries(ctx, "LD_LIBRARY_PATH", notes)) {
    places.push_back({dir, "LD_LIBRARY_PATH"});
  }
  for (const auto& entry : ld_so_cache_entries(cache)) {
    discovery::named_library named;
    if (discovery::library_named(entry.first, named)) {
      places.push_back({parent_dir(path_under(ctx.root(), entry.second)), "ld.so.cache"});
    }
  }
  for (const std::string& dir : library_dirs_under(ctx.root())) places.push_back({dir, "a system folder"});
  for (const char* dir : {"/usr/local/nvidia/lib64", "/usr/local/nvidia/lib"}) {
    places.push_back({ctx.system_path(dir), discovery::words::container_toolkit_mount()});
  }
  places.push_back({ctx.system_path("/usr/lib/wsl/lib"), "WSL's driver folder"});
  return places;
}

// Where an nvidia-* wheel's package folder (site-packages/nvidia/cudnn) keeps its libraries.
inline std::vector<std::string> wheel_library_dirs(const std::string& package) { return {join_path(package, "lib")}; }

// Where a conda environment keeps the libraries its packages install.
inline std::vector<std::string> environment_library_dirs(const std::string& prefix) {
  return {join_path(prefix, "lib")};
}

// A toolkit's folders that hold what no program loads by the usual names: the link-time stub of
// the driver (lib64/stubs) and the forward-compatibility package's driver (compat).
inline std::vector<std::string> toolkit_special_dirs(const std::string& root) {
  return {join_path(root, "lib64/stubs"), join_path(root, "targets/x86_64-linux/lib/stubs"), join_path(root, "compat")};
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
