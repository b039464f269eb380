// The definitions of machine.hpp, in the doctor's one translation unit: the stages in order (the
// saved variables, toolkits, the cuDNN the build variables name, Python environments and the
// interpreters IDEs run, conda's variables, a cuDNN unpacked by hand, the frameworks in each
// environment with their loads, the inventory, programs built with cushim), then the checks.
#pragma once

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "machine.hpp"
#include <cushim/detail/platform/local_binding.hpp>
#include "../inventory/copies.hpp"
#include "../report/machine_json.hpp"
#include "../report/machine_text.hpp"
#include "../stacks/checks.hpp"
#include "../stacks/cudnn_imports.hpp"
#include "../stacks/framework_loader.hpp"
#include "../stacks/framework_loads.hpp"
#include "../stacks/programs.hpp"
#include "../stacks/saved_environment_checks.hpp"
#include "build_tools.hpp"
#include "conda_variables.hpp"
#include "context.hpp"
#include "frameworks.hpp"
#include "pythons.hpp"
#include "saved_environment.hpp"
#include "standalone_cudnn.hpp"
#include "toolkits.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// The frameworks and wheels of every environment, each framework's loads worked out as its
// loader would make them.
inline void examine_environments(const context& ctx, std::string_view cache, machine::findings& f) {
  platform::loader_state state(ctx, cache);
  for (machine::environment& e : f.environments) {
    for (const std::string& site : e.site_packages) {
      site_index index = index_site(site, e.notes);
      find_nvidia_wheels(index, e);
      wheel_files wheels(index, e);
      for (found_framework& found : find_frameworks(index)) {
        platform::simulate_framework_load({ctx, e, index, wheels, state}, found);
        check_framework(ctx.opts, site, found, e, found.fw);
        e.frameworks.push_back(std::move(found.fw));
      }
    }
    check_wheels(e);
  }
}

// The toolkit the build tools pick (CUDA_PATH, CUDA_HOME, nvcc on PATH): what the cuDNN the
// build variables name is used with.
inline std::string selected_cuda(const machine::findings& f) {
  for (const machine::toolkit& t : f.toolkits) {
    if (!t.selected_by.empty()) return t.version;
  }
  return {};
}

// How a sentence names where a cuDNN outside the toolkits is: the variable that names it, or its
// folder and the variable it was found through ("C:\cudnn\8.5.0.96\cuda\bin (PATH)").
inline std::string cudnn_place(const machine::cudnn_install& c) {
  bool by_folder = platform::standalone_cudnn_variable && !c.library.empty() &&
                   c.found_by.compare(0, std::char_traits<char>::length(platform::standalone_cudnn_variable),
                                      platform::standalone_cudnn_variable) == 0;
  return by_folder ? parent_dir(c.library) + " (" + c.found_by + ")" : c.found_by;
}

inline machine::findings discover(const machine::options& o) {
  context ctx(o);
  machine::findings f;
  std::vector<saved_variable> saved;
  if (o.use_process_environment) saved = platform::saved_variables(f.notes);
  find_toolkits(ctx, f);
  find_cudnn_variables(ctx, f);
  find_build_cudnn(ctx, f);
  find_environments(ctx, f);
  for (machine::environment& e : f.environments) check_conda_variables(ctx, e);
  std::vector<std::string> saved_only = check_saved_environment(ctx, saved, f);
  find_standalone_cudnn(ctx, saved_only, f);
  for (machine::toolkit& t : f.toolkits) {
    for (machine::cudnn_install& c : t.cudnn) platform::resolve_cudnn_imports(ctx, c);
  }
  for (machine::cudnn_install& c : f.cudnn) platform::resolve_cudnn_imports(ctx, c);
  text_file cache;
  std::string cache_file = platform::loader_cache_path(ctx);
  if (!cache_file.empty()) cache = read_text(cache_file, cache_file_limit);
  examine_environments(ctx, cache.text, f);
  take_inventory(ctx, cache.text, saved_only, f);
  examine_programs(ctx, f);
  for (machine::toolkit& t : f.toolkits) check_toolkit(o, t);
  for (const machine::cudnn_install& c : f.cudnn) {
    if (c.found_by != "CUDNN_INCLUDE_DIR") check_cudnn(o, c, cudnn_place(c), selected_cuda(f), f.problems, f.notes);
  }
  check_selection(ctx, f);
  check_interpreter(f);
  check_ide_interpreters(f);
  note_unused_toolkit_cudnn(f);
  examine_build_tools(ctx, f);
  return f;
}

}  // namespace discovery
}  // namespace
}  // namespace detail

namespace machine {

CUSHIM_LOCAL_BINDING findings discover(const options& opts) {
#if defined(__cpp_exceptions)
  try {
    return detail::discovery::discover(opts);
  } catch (const std::bad_alloc&) {
    findings f;
    f.notes.push_back(detail::discovery::words::out_of_memory());
    return f;
  }
#else
  return detail::discovery::discover(opts);
#endif
}

CUSHIM_LOCAL_BINDING bool has_problems(const findings& f) {
  if (!f.problems.empty() || !f.build.problems.empty()) return true;
  for (const toolkit& t : f.toolkits) {
    if (!t.problems.empty()) return true;
  }
  for (const environment& e : f.environments) {
    if (!e.problems.empty()) return true;
    for (const framework& fw : e.frameworks) {
      if (!fw.problems.empty()) return true;
    }
  }
  return false;
}

CUSHIM_LOCAL_BINDING std::string text(const findings& f) { return detail::discovery::findings_text(f); }

CUSHIM_LOCAL_BINDING std::string json(const findings& f) { return detail::discovery::findings_json(f); }

CUSHIM_LOCAL_BINDING std::vector<std::pair<std::string, std::string>> record(const findings& f) {
  return detail::discovery::findings_record(f);
}

}  // namespace machine
}  // namespace cushim
