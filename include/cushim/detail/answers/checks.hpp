// The report, computed once: every library's status, completed by the step status_of() takes
// (status_completion.hpp), then the checks that need more than one library (the driver against
// the runtime, cuDNN's CUDA build against the runtime), then one problem per function that
// returns a fallback. explain() and explain_json() only render what this finds.
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "../load/driver.hpp"
#include "../libraries/all.hpp"
#include "../search/words/loading.hpp"
#include "../report/report.hpp"
#include "status_completion.hpp"
#include "words/answers.hpp"

namespace cushim {
namespace detail {
namespace {

inline void check_driver(report& r) {
  const driver_status& d = r.driver.probe;
  for (const std::string& stub : d.stubs) {
    r.driver.problems.push_back(problems_of::driver_stub(stub, platform::driver_install_advice()));
  }
  if (!d.blocked_by.empty()) {
    r.driver.problems.push_back(problems_of::driver_blocked(platform::driver_file_name(), d.blocked_by));
  }
  if (d.found) return;
  r.driver.problems.push_back(
      problems_of::no_driver(platform::driver_file_name(), d.attempts.size(), platform::driver_install_advice()));
}

// Functions that return a fallback although the library loaded: routed there by a hook (a
// sub-library they need is unusable), or missing from the copy in use.
inline void check_calls(report_library& lib) {
  const library_descriptor& d = *lib.desc;
  for (const auto& blocked : lib.blocked_functions) {
    lib.call_problems.push_back(problems_of::blocked_function(d, blocked.first, blocked.second));
  }
  for (const std::string& name : lib.missing_functions) {
    lib.call_problems.push_back(problems_of::missing_function(d, name, *lib.st));
  }
}

// A library whose calls load the driver by name, while a FIFO blocks that load: which of them get
// the "unavailable" fallback (first_call.hpp), whether or not one was made yet.
inline void check_driver_calls(report_library& lib) {
  const library_descriptor& d = *lib.desc;
  if (!d.loads_driver || lib.st->code != error_code::ok) return;
  const std::string& fifo = driver_blocker();
  if (!fifo.empty()) lib.problems.push_back(problems_of::driver_calls_blocked(d, platform::driver_file_name(), fifo));
}

inline report_library gather(library_state& state, const status& st) {
  report_library lib;
  lib.desc = state.desc;
  lib.st = &st;
  lib.problems = st.problems;
  std::lock_guard<std::mutex> lock(state.missing_mutex);
  lib.problems.insert(lib.problems.end(), state.late_problems.begin(), state.late_problems.end());
  lib.missing_functions = state.missing_functions;
  for (const std::string& entry : state.blocked_functions) {
    std::size_t bar = entry.find('|');
    lib.blocked_functions.emplace_back(entry.substr(0, bar), entry.substr(bar + 1));
  }
  return lib;
}

// The report's driver section. A build that shims the driver API has one search for both: the
// driver library's, whose copy in use (or one refused for its version) is the driver found.
// Otherwise the driver is probed in the same places.
inline driver_status driver_for_report() {
  for (const library_descriptor* d : descriptors) {
    if (!d->reports_driver || !d->shimmed) continue;
    const status& st = completed_status(d->id);
    driver_status found;
    found.attempts = st.attempts;
    found.stubs = state_of(d->id).link_time_stubs;
    for (const attempt& a : st.attempts) {
      // The loader loaded its copy by path, past a FIFO; the runtime's load by name stops there.
      if (!found.found && found.blocked_by.empty() && a.result == outcome::not_a_file &&
          platform::check_file(a.path).blocks_open) {
        found.blocked_by = a.path;
      }
      if (a.result != outcome::loaded && a.result != outcome::reused && a.result != outcome::wrong_version) continue;
      found.found = true;
      found.path = a.path;
      found.cuda_version = st.code == error_code::ok ? st.version : 0;
    }
    return found;
  }
  return driver();
}

inline report build_report() {
  report r;
  // Every library is loaded before any status is completed: one library's checks may depend on
  // what cushim loaded of the others (cuDNN's by-name loads find the cuBLASLt and NVRTC in use).
  for (int i = 0; i < library_count; ++i) {
    if (in_reports(descriptor_of(library(i)))) ensure_usable(library(i));
  }
  r.driver.probe = driver_for_report();
  for (int i = 0; i < library_count; ++i) {
    if (in_reports(descriptor_of(library(i))))
      r.libraries.push_back(gather(state_of(library(i)), completed_status(library(i))));
  }
  {
    std::lock_guard<std::mutex> lock(shim().notes_mutex);
    r.notes = shim().notes;
  }
  if (platform::secure_execution()) {
    r.notes.push_back(words::secure_execution_note);
  }
  check_driver(r);
  for (report_library& lib : r.libraries) {
    if (lib.desc->hooks.cross_check) lib.desc->hooks.cross_check(r, lib);
    check_driver_calls(lib);
    check_calls(lib);
  }
  return r;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
