// The definitions of <cushim/diagnostics.hpp>, in the CUSHIM_IMPLEMENTATION translation unit,
// which implementation.hpp enters after that header's declarations.
#pragma once

#include <string>
#include <vector>

#include "checks.hpp"
#include "../platform/local_binding.hpp"
#include "nvml_query.hpp"
#include "../platform/platform_texts.hpp"

namespace cushim {
namespace diagnostics {

CUSHIM_LOCAL_BINDING driver_info driver() {
  detail::fork_pass pass;
  const detail::driver_status d = detail::driver_for_report();
  driver_info info;
  info.found = d.found;
  info.path = d.path;
  info.cuda_version = d.cuda_version;
  info.blocked_by = d.blocked_by;
  if (d.found) info.version = detail::platform::driver_version_of(d.path);
  info.install_advice = detail::platform::driver_install_advice();
  return info;
}

CUSHIM_LOCAL_BINDING nvml_info nvml() {
  detail::fork_pass pass;  // it takes options_mutex and the dl lock
  const detail::nvml_record r = detail::query_nvml();
  nvml_info info;
  info.found = r.found;
  info.path = r.path;
  info.error = r.error;
  info.driver_version = r.driver_version;
  info.cuda_version = r.cuda_version;
  for (const detail::nvml_gpu_record& g : r.gpus) info.gpus.push_back({g.name, g.major, g.minor, g.memory_bytes});
  return info;
}

CUSHIM_LOCAL_BINDING std::vector<library> libraries() {
  std::vector<library> all;
  for (int i = 0; i < library_count; ++i) {
    if (detail::in_reports(detail::descriptor_of(library(i)))) all.push_back(library(i));
  }
  return all;
}

CUSHIM_LOCAL_BINDING const char* display_name(library lib) {
  return detail::known_library(lib) ? detail::descriptor_of(lib).display_name : "unknown library";
}

CUSHIM_LOCAL_BINDING const char* name_in_sentence(library lib) {
  return detail::known_library(lib) ? detail::descriptor_of(lib).in_sentence : "an unknown library";
}

CUSHIM_LOCAL_BINDING std::string version_text(library lib, long version) {
  return version && detail::known_library(lib) ? detail::version_text(detail::descriptor_of(lib), version) : "unknown";
}

CUSHIM_LOCAL_BINDING std::string cuda_version_text(long version) {
  return version ? detail::format_version(detail::decode_cuda_version(version), false) : "unknown";
}

CUSHIM_LOCAL_BINDING std::vector<reported_problem> problems() {
  detail::fork_pass pass;
  detail::report r = detail::build_report();
  std::vector<reported_problem> all;
  for (const problem& p : r.driver.problems) all.push_back({"driver", p});
  for (const detail::report_library& lib : r.libraries) {
    for (const problem& p : lib.problems) all.push_back({lib.desc->key, p});
    for (const problem& p : lib.call_problems) all.push_back({lib.desc->key, p});
  }
  return all;
}

CUSHIM_LOCAL_BINDING void load_sublibraries(library lib) {
  if (!detail::known_library(lib) || !available(lib)) return;
  detail::fork_pass pass;
  detail::library_state& state = detail::state_of(lib);
  if (state.desc->hooks.load_pending) state.desc->hooks.load_pending(state);
}

CUSHIM_LOCAL_BINDING file_dependencies dependencies_of(const std::string& path) {
  detail::fork_pass pass;
  file_dependencies result{path, {}, {}};
  detail::platform::dependency_resolver resolver;
  for (const std::string& name : resolver.needs(path, result.error)) {
    dependency d{name, {}, {}};
    std::vector<detail::searched_place> searched;
    d.path = resolver.locate(name, path, searched);
    d.searched = detail::words::place_texts(searched);
    result.needs.push_back(std::move(d));
  }
  return result;
}

CUSHIM_LOCAL_BINDING const char* dependency_list_name() { return detail::platform::dependency_list_name; }

}  // namespace diagnostics
}  // namespace cushim
