// Everything CUSHIM_IMPLEMENTATION adds: the public API's definitions and the exported stubs.
// The one entry into detail/ for the implementation: entered at the end of diagnostics.hpp, where
// every public header leads with CUSHIM_IMPLEMENTATION, in exactly one translation unit, after
// every public declaration it defines (so it includes no public header itself; docs/contributing.md,
// "Repository").
#pragma once

#include "tables/api_tables.hpp"
#include "answers/checks.hpp"
#include "answers/child_work.hpp"
#include "answers/diagnostics_impl.hpp"
#include "platform/local_binding.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "answers/status_completion.hpp"
#include "answers/words/answers.hpp"
#include "stubs/stubs.hpp"
#include "platform/system_root.hpp"
#include "platform/thread_end.hpp"

namespace cushim {
namespace detail {
namespace {

// status_of()'s answer for a value that is no library: one status for every such value, never
// changed, with `lib` set to library_count.
inline const status& unknown_library_status() {
  static const status* unknown = [] {
    status* made = new status;
    made->lib = library(library_count);
    made->code = error_code::disabled;
    made->problems.push_back(problems_of::no_such_library());
    return made;
  }();
  return *unknown;
}

}  // namespace
}  // namespace detail

CUSHIM_LOCAL_BINDING bool configure(const options& opts) {
  detail::fork_pass pass;
  detail::shim_state& s = detail::shim();
  bool refused;
  {
    std::lock_guard<std::mutex> lock(s.options_mutex);
    refused = s.started.load();
    if (!refused) {
      s.opts = opts;
      detail::platform::set_system_root(opts.system_root);
    }
  }
  if (refused) {
    detail::add_note(detail::words::configure_too_late_note);
  }
  return !refused;
}

CUSHIM_LOCAL_BINDING bool available(library lib) { return detail::ensure_usable(lib); }

CUSHIM_LOCAL_BINDING error_code error_of(library lib) {
  if (!detail::known_library(lib)) return error_code::disabled;
  detail::ensure_usable(lib);
  return detail::state_of(lib).st.code;
}

CUSHIM_LOCAL_BINDING const status& status_of(library lib) {
  return detail::known_library(lib) ? detail::completed_status(lib) : detail::unknown_library_status();
}

CUSHIM_LOCAL_BINDING std::string explain() {
  detail::fork_pass pass;
  return detail::catching_all([] { return detail::explain_text(detail::build_report()); }, [] {},
                              [] { return std::string(detail::words::explain_out_of_memory); });
}

CUSHIM_LOCAL_BINDING std::string explain_json() {
  detail::fork_pass pass;
  return detail::catching_all([] { return detail::explain_json_text(detail::build_report()); }, [] {},
                              [] { return std::string("{\"schema\":1,\"error\":\"out of memory\"}"); });
}

CUSHIM_LOCAL_BINDING const char* to_string(error_code code) {
  switch (code) {
    case error_code::ok: return "ok";
    case error_code::not_found: return "not_found";
    case error_code::load_failed: return "load_failed";
    case error_code::not_the_library: return "not_the_library";
    case error_code::version_mismatch: return "version_mismatch";
    case error_code::override_failed: return "override_failed";
    case error_code::already_loaded_mismatch: return "already_loaded_mismatch";
    case error_code::disabled: return "disabled";
    case error_code::sublibrary_unusable: return "sublibrary_unusable";
  }
  return "unknown";
}

CUSHIM_LOCAL_BINDING const char* to_string(outcome result) {
  switch (result) {
    case outcome::loaded: return "loaded";
    case outcome::reused: return "reused";
    case outcome::absent: return "absent";
    case outcome::folder_absent: return "folder_absent";
    case outcome::not_a_file: return "not_a_file";
    case outcome::unreadable: return "unreadable";
    case outcome::load_failed: return "load_failed";
    case outcome::not_the_library: return "not_the_library";
    case outcome::wrong_version: return "wrong_version";
    case outcome::skipped_relative: return "skipped_relative";
    case outcome::skipped_empty: return "skipped_empty";
    case outcome::duplicate: return "duplicate";
    case outcome::bad_format: return "bad_format";
    case outcome::wrong_architecture: return "wrong_architecture";
    case outcome::missing_dependency: return "missing_dependency";
    case outcome::sublibrary_unusable: return "sublibrary_unusable";
    case outcome::shadowed: return "shadowed";
    case outcome::other_major: return "other_major";
    case outcome::untrusted_location: return "untrusted_location";
    case outcome::crashed: return "crashed";
  }
  return "unknown";
}

CUSHIM_LOCAL_BINDING const char* to_string(library lib) {
  return detail::known_library(lib) ? detail::descriptor_of(lib).key : "unknown";
}

}  // namespace cushim
