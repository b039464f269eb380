// Linux: a framework's CUDA-bound library loaded as its Python process would load it, worked out
// from the files: the library's RPATH and RUNPATH, the LD_LIBRARY_PATH of the environment the
// doctor runs in, /etc/ld.so.cache and the system folders (dependencies.hpp's resolver, with a
// fresh process instead of this one); torch's own fallback, which loads the CUDA libraries from
// the nvidia-* wheels when its first load fails; a copy on LD_LIBRARY_PATH that shadows the one
// the framework's RUNPATH names; and cuDNN's own loads of its sub-libraries by name from there.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "../framework_loads.hpp"
#include "../../inventory/library_names.hpp"
#include <cushim/detail/search/posix/dependencies.hpp>
#include <cushim/detail/search/posix/sublibrary_finder.hpp>

namespace cushim {
namespace detail {
namespace {
namespace platform {

// What every framework's load shares in one discovery: the resolver of a fresh process with the
// environment's LD_LIBRARY_PATH, and one without it (what the frameworks' RUNPATH alone gives).
// Each file is read once for all of them; what a process has loaded is set per framework.
struct loader_state {
  loader_state(const discovery::context& ctx, std::string_view cache)
      : library_path(discovery::absolute_entries(ctx, "LD_LIBRARY_PATH", ignored)),
        with_path(cache, library_path, {}, ctx.root()),
        without_path(cache, {}, {}, ctx.root()) {}

  std::vector<std::string> ignored;  // the machine's notes name odd LD_LIBRARY_PATH entries once
  std::vector<std::string> library_path;
  dependency_resolver with_path;
  dependency_resolver without_path;
};

struct loader_input {
  const discovery::context& ctx;
  const machine::environment& env;
  const discovery::site_index& site;
  const discovery::wheel_files& wheels;
  loader_state& state;
};

// torch/__init__.py: when loading its libraries fails on a CUDA library, it loads every one it
// knows from site-packages/nvidia/<package>/lib (nvidia/cu13/lib for CUDA 13) and tries again.
inline std::string nvidia_wheel_copy(const std::string& site, const std::string& name,
                                     std::vector<searched_place>& searched) {
  std::string nvidia = join_path(site, "nvidia");
  folder_listing packages = list_names(nvidia, discovery::folder_names_limit);
  for (const std::string& package : packages.names) {
    std::string path = join_path(join_path(join_path(nvidia, package), "lib"), name);
    std::string why;
    if (check_file(path).state == file_state::regular && inspect_file(path, why) == outcome::loaded) return path;
  }
  searched.push_back({searched_place::finding::named, discovery::words::torch_preload_place(nvidia), {}, false});
  return {};
}

inline discovery::import_walk walk_framework(const loader_input& in, const discovery::found_framework& found,
                                             const dependency_resolver& resolver) {
  bool torch = found.spec->loader == discovery::loader_model::torch;
  return discovery::walk_imports(resolver, found.fw.native_file, load_kind::by_path,
                                 [&](const std::string& name, std::vector<searched_place>& searched) {
                                   return torch ? nvidia_wheel_copy(in.site.dir, name, searched) : std::string();
                                 });
}

// cuDNN's own loads of its sub-libraries by name, from the process that loaded `found` (name, path).
inline void check_cudnn_loads(const loader_input& in, const std::vector<std::pair<std::string, std::string>>& found,
                              dependency_resolver& resolver, machine::framework& fw) {
  std::string cudnn_name, cudnn_path;
  int major = 0;
  for (const auto& f : found) {
    if (int m = cudnn_major_of_main(f.first)) major = m, cudnn_name = f.first, cudnn_path = f.second;
  }
  if (major < 8) return;
  std::vector<loaded_object> loaded;
  for (const auto& f : found) loaded.push_back({f.second, f.first});
  resolver.assume_loaded(loaded);
  sublibrary_finder finder(cudnn_path, &resolver);
  discovery::check_cudnn_by_name(
      discovery::describe_load(cudnn_name, cudnn_path, in.wheels), major, in.wheels,
      [&](const std::string& file, std::vector<std::string>& searched) {
        std::vector<searched_place> places;
        std::string path = finder.by_name(file, places);
        searched = detail::words::place_texts(places);
        return path;
      },
      discovery::words::from_process(fw.name), fw);
}

// NVRTC's builtins as CuPy's process loads them (what it mapped on a real machine): the copy beside
// NVRTC; empty when there is none there.
inline std::string builtins_beside(const std::string& nvrtc) {
  std::string base, numbers;
  for (const std::string& beside : list_folder(parent_dir(nvrtc), "libnvrtc-builtins.so.")) {
    if (discovery::split_shared_object_name(beside, base, numbers) && numbers.find('.') != std::string::npos) {
      return join_path(parent_dir(nvrtc), beside);
    }
  }
  return {};
}

// A framework that loads its libraries itself (loader_model::wheel_libraries): each of its build's
// CUDA major from its wheel's folder, else by name as the system loader finds it from its library.
inline void simulate_wheel_libraries(const loader_input& in, discovery::found_framework& found) {
  machine::framework& fw = found.fw;
  dependency_resolver& resolver = in.state.with_path;
  resolver.assume_loaded({});
  int major = std::atoi(fw.cuda.c_str());
  std::string requester = fw.native_file.empty() ? in.env.python : fw.native_file;
  std::vector<std::pair<std::string, std::string>> loaded;
  std::vector<std::string> missing, first_searched;
  for (const discovery::wheel_library& w : found.spec->wheel_libraries) {
    if (w.cuda_major != major) continue;
    std::string path = join_path(join_path(join_path(join_path(in.site.dir, "nvidia"), w.module), "lib"), w.file);
    std::string why;
    std::vector<std::string> searched;
    if (!resolver.loadable(path, why)) {
      searched.push_back(parent_dir(path));
      path = discovery::lexically_normal(
          discovery::locate_and_say(resolver, w.file, requester, searched, load_kind::by_name));
    }
    if (path.empty()) {
      if (missing.empty()) first_searched = searched;
      missing.push_back(w.file);
      continue;
    }
    loaded.emplace_back(w.file, path);
    if (discovery::loaded_library_display(w.file))
      fw.loads.push_back(discovery::describe_load(w.file, path, in.wheels));
    if (std::string(w.file).compare(0, 12, "libnvrtc.so.") == 0) {
      std::string builtins = builtins_beside(path);
      if (!builtins.empty()) fw.loads.push_back(discovery::describe_load(file_name_of(builtins), builtins, in.wheels));
    }
  }
  if (!missing.empty()) {
    fw.problems.push_back(discovery::words::framework_library_not_found(fw, in.site.dir, missing, first_searched,
                                                                        found.spec->cuda_install));
  }
  check_cudnn_loads(in, loaded, resolver, fw);
}

// What torch loads from the nvidia-* wheels besides its imports (framework_specs.hpp's
// torch_libraries), where its environment has them.
inline void add_wheel_loads(const loader_input& in, const discovery::found_framework& found,
                            const dependency_resolver& resolver, machine::framework& fw) {
  int major = std::atoi(fw.cuda.c_str());
  for (const discovery::wheel_library& w : found.spec->wheel_libraries) {
    std::string path = join_path(join_path(join_path(join_path(in.site.dir, "nvidia"), w.module), "lib"), w.file);
    std::string why;
    if (w.cuda_major != major || !resolver.loadable(path, why)) continue;
    bool known = false;
    for (const machine::library_load& load : fw.loads) known = known || load.name == w.file;
    if (known) continue;
    fw.loads.push_back(discovery::describe_load(w.file, path, in.wheels));
    std::string builtins = std::string(w.file).compare(0, 12, "libnvrtc.so.") == 0 ? builtins_beside(path) : "";
    if (!builtins.empty()) fw.loads.push_back(discovery::describe_load(file_name_of(builtins), builtins, in.wheels));
  }
}

// The driver's libraries a CUDA build loads by name (framework_specs.hpp's linux_driver_loads),
// where the system loader finds them; none found is the driver's section's to say.
inline void add_driver_loads(const loader_input& in, const discovery::found_framework& found,
                             const dependency_resolver& resolver, machine::framework& fw) {
  if (fw.build != "cuda") return;
  for (const char* name : found.spec->linux_driver_loads) {
    std::vector<searched_place> searched;
    std::string path = resolver.locate(name, fw.native_file, searched, load_kind::by_name);
    if (!path.empty()) fw.loads.push_back(discovery::describe_load(name, discovery::lexically_normal(path), in.wheels));
  }
}

inline void simulate_framework_load(const loader_input& in, discovery::found_framework& found) {
  if (found.spec->loader == discovery::loader_model::wheel_libraries) return simulate_wheel_libraries(in, found);
  machine::framework& fw = found.fw;
  dependency_resolver& resolver = in.state.with_path;
  resolver.assume_loaded({});  // a fresh Python process
  discovery::import_walk walk = walk_framework(in, found, resolver);
  discovery::add_known_loads(walk, in.wheels, fw);
  if (walk.missing.empty()) {
    add_wheel_loads(in, found, resolver, fw);
    add_driver_loads(in, found, resolver, fw);
  }
  if (!walk.missing.empty()) {
    fw.problems.push_back(discovery::words::import_fails(fw, walk.missing.front()));
  }
  if (!in.state.library_path.empty()) {  // what the framework's own RUNPATH would give without LD_LIBRARY_PATH
    discovery::import_walk intended = walk_framework(in, found, in.state.without_path);
    for (const machine::library_load& load : fw.loads) {
      std::string meant = intended.path_of(load.name);
      if (meant.empty() || meant == load.path) continue;
      machine::library_load other = discovery::describe_load(load.name, meant, in.wheels);
      if (!load.version.empty() && load.version == other.version) continue;
      fw.problems.push_back(discovery::words::shadowed_by_library_path(fw, load, other));
    }
  }
  check_cudnn_loads(in, walk.found, resolver, fw);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
