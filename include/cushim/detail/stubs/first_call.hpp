// What a stub's first call does: load its library, find the function (or pick its fallback) and
// say whether the answer stays in the slot. Both stub forms call it (stub_trampolines.hpp,
// stub_resolvers.hpp).
#pragma once

#include <cstring>
#include <mutex>
#include <string>

#include "../load/driver.hpp"
#include "fail_fast.hpp"
#include "fallbacks.hpp"
#include "../libraries/all.hpp"
#include "../load/load_once.hpp"
#include "words/calls.hpp"

namespace cushim {
namespace detail {
namespace {

inline bool names_one_of(const fixed_list<const char*>& names, const char* name) {
  for (const char* n : names) {
    if (std::strcmp(n, name) == 0) return true;
  }
  return false;
}

// Whether the call would make the library load the driver by name while a FIFO blocks that load
// (driver_blocker): it gets the "unavailable" fallback, which the report explains (checks.hpp).
inline bool waits_on_driver(const library_descriptor& d, const char* name) {
  return d.loads_driver && !names_one_of(d.driver_free_functions, name) && !names_one_of(d.startup_functions, name) &&
         !driver_blocker().empty();
}

// What a stub's first call found: the function to call, and whether it stays in the slot.
struct resolution {
  platform::any_function function;
  bool final;  // false for a call made while its library is loading on this thread (from the log
               // callback): it gets the fallback this once, and the next call resolves again
};

inline resolution resolve(library lib, const char* name, const char* group, platform::any_function unavailable,
                          platform::any_function missing) {
  // First, before any static or lock: a call that re-enters the load (ensure_loaded) gets the
  // fallback this once.
  const bool loaded = ensure_loaded(lib);
  if (!loaded && loading_on_this_thread_now(lib)) return {unavailable, false};
  fork_pass pass;
  library_state& state = state_of(lib);
  const library_descriptor& d = *state.desc;
  // Read only now: fail_fast is set by the load, which ensure_loaded has waited for.
  // Functions that run before main (nvcc's registrations) never stop the process under fail_fast.
  const bool may_stop = state.fail_fast && !names_one_of(d.startup_functions, name);
  if (!loaded) {
    if (may_stop) stop_the_process(d.display_name, name);
    return {unavailable, true};
  }
  if (waits_on_driver(d, name) || (d.hooks.blocks_call && d.hooks.blocks_call(state, name, group))) {
    if (may_stop) stop_the_process(d.display_name, name);
    return {unavailable, true};
  }
  if (platform::any_function f = platform::find_symbol(state.handle, name)) {
    return {d.hooks.wrap ? d.hooks.wrap(name, f) : f, true};
  }
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(state.missing_mutex);
    bool known = false;
    for (const std::string& n : state.missing_functions) known = known || n == name;
    if (!known) state.missing_functions.emplace_back(name);
    first = !known;
  }
  if (first) {
    log_event(words::function_not_exported(d.display_name, name, state.st.path));
  }
  return {missing, true};
}

// What a stub's first call passes to resolve(), as constants.
struct stub_call {
  library lib;
  const char* name;
  const char* group;
  platform::any_function (*fallback)(failure why);
};

inline resolution resolve(const stub_call& c) {
  return resolve(c.lib, c.name, c.group, c.fallback(failure::library_unavailable),
                 c.fallback(failure::function_missing));
}

}  // namespace
}  // namespace detail
}  // namespace cushim

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSHIM_UNDER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define CUSHIM_UNDER_TSAN 1
#endif

// The fallbacks of one table line.
#define CUSHIM_STUB_FALLBACKS(lib, ret, name, params)                                                    \
  ::cushim::detail::stub_fallbacks<::cushim::detail::has_output_fallback(::cushim::library::lib, #name), \
                                   ::cushim::library::lib, ret(*) params>::select
