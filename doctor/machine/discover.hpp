// The definitions of <cushim/machine.hpp>, in the CUSHIM_IMPLEMENTATION translation unit of a
// program that includes that header there: the stages in order (toolkits, the cuDNN the build
// variables name, Python environments, the frameworks in each with their loads), then the checks.
#pragma once

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "machine.hpp"
#include <cushim/detail/local_binding.hpp>
#include "../stacks/checks.hpp"
#include "context.hpp"
#include "../stacks/framework_loads.hpp"
#include "frameworks.hpp"
#include "pythons.hpp"
#include "../report/machine_json.hpp"
#include "../report/machine_text.hpp"
#include "toolkits.hpp"
#include "../inventory/copies.hpp"
#include "../stacks/programs.hpp"
#include "../stacks/framework_loader.hpp"

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

inline machine::findings discover(const machine::options& o) {
  context ctx(o);
  machine::findings f;
  find_toolkits(ctx, f);
  find_cudnn_variables(ctx, f);
  find_build_cudnn(ctx, f);
  find_environments(ctx, f);
  text_file cache;
  std::string cache_file = platform::loader_cache_path(ctx);
  if (!cache_file.empty()) cache = read_text(cache_file, cache_file_limit);
  examine_environments(ctx, cache.text, f);
  take_inventory(ctx, cache.text, f);
  examine_programs(ctx, f);
  for (machine::toolkit& t : f.toolkits) check_toolkit(o, t);
  for (const machine::cudnn_install& c : f.cudnn) {
    if (c.found_by != "CUDNN_INCLUDE_DIR") check_cudnn(o, c, c.found_by, selected_cuda(f), f.problems, f.notes);
  }
  check_selection(ctx, f);
  check_interpreter(f);
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
    f.notes.push_back("discovery ran out of memory; nothing it found is listed");
    return f;
  }
#else
  return detail::discovery::discover(opts);
#endif
}

CUSHIM_LOCAL_BINDING bool has_problems(const findings& f) {
  if (!f.problems.empty()) return true;
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
