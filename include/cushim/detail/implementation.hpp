// Everything CUSHIM_IMPLEMENTATION adds: the public API's definitions and the exported stubs.
// Included by status.hpp (which cushim.hpp includes with CUSHIM_IMPLEMENTATION) in exactly one
// translation unit.
#pragma once

#include "api_tables.hpp"
#include "report.hpp"
#include "stubs.hpp"

namespace cushim {
namespace detail {

inline const status& disabled_status() {
  static const status st = [] {
    status s;
    s.lib = library::cudart;
    s.code = error_code::disabled;
    s.compiled_version = CUDART_VERSION;
    s.problems.push_back({error_code::disabled, false, "the CUDA runtime is not shimmed by this build", "",
                          "CUSHIM_NO_CUDART is defined: the program links the CUDA runtime itself (cudart_static)",
                          ""});
    return s;
  }();
  return st;
}

inline bool cudart_shimmed() {
#ifdef CUSHIM_NO_CUDART
  return false;
#else
  return true;
#endif
}

inline report_input gather_report() {
  report_input in{driver(), {}, {}};
  in.libraries.push_back(&status_of(library::cudart));
  in.libraries.push_back(&status_of(library::cudnn));
  std::lock_guard<std::mutex> lock(shim().notes_mutex);
  in.notes = shim().notes;
  return in;
}

}  // namespace detail

bool configure(const options& opts) {
  detail::shim_state& s = detail::shim();
  bool refused;
  {
    std::lock_guard<std::mutex> lock(s.options_mutex);
    refused = s.started.load();
    if (!refused) s.opts = opts;
  }
  if (refused) {
    detail::add_note(
        "configure() was called after a library was loaded; the new options were ignored. Call it "
        "before the first cudnn*/cuda* call, available(), status_of() or explain()");
  }
  return !refused;
}

bool available(library lib) {
  if (lib == library::cudart && !detail::cudart_shimmed()) return false;
  return detail::ensure_loaded(detail::state_of(lib));
}

error_code error_of(library lib) {
  if (lib == library::cudart && !detail::cudart_shimmed()) return error_code::disabled;
  detail::library_state& state = detail::state_of(lib);
  detail::ensure_loaded(state);
  return state.st.code;
}

const status& status_of(library lib) {
  if (lib == library::cudart && !detail::cudart_shimmed()) return detail::disabled_status();
  detail::library_state& state = detail::state_of(lib);
  detail::ensure_loaded(state);
  detail::complete_sublibrary_report(state);
  return state.st;
}

std::string explain() {
#if defined(__cpp_exceptions)
  try {
    return detail::explain_text(detail::gather_report());
  } catch (...) {
    return "cushim: explain() ran out of memory";
  }
#else
  return detail::explain_text(detail::gather_report());
#endif
}

std::string explain_json() {
#if defined(__cpp_exceptions)
  try {
    return detail::explain_json_text(detail::gather_report());
  } catch (...) {
    return "{\"schema\":1,\"error\":\"out of memory\"}";
  }
#else
  return detail::explain_json_text(detail::gather_report());
#endif
}

const char* to_string(error_code code) {
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

const char* to_string(outcome result) {
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
  }
  return "unknown";
}

const char* to_string(library lib) { return lib == library::cudnn ? "cudnn" : "cudart"; }

}  // namespace cushim
