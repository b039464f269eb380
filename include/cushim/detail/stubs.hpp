// Self-patching slots: each exported cudnn*/cuda* function jumps through an atomic pointer that
// starts at its first-call path. The first call loads the library, finds the symbol (or picks a
// fallback), stores it in the slot and forwards; later calls are one load and one indirect jump.
#pragma once

#include <cstring>
#include <type_traits>

#include "declared_functions.hpp"
#include "fail_fast.hpp"
#include "fallbacks.hpp"
#include "libraries.hpp"
#include "local_binding.hpp"
#include "loader.hpp"

namespace cushim {
namespace detail {
namespace {

inline bool names_one_of(const fixed_list<const char*>& names, const char* name) {
  for (const char* n : names) {
    if (std::strcmp(n, name) == 0) return true;
  }
  return false;
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
  if (d.hooks.blocks_call && d.hooks.blocks_call(state, name, group)) {
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
    log_event(std::string("cushim: ") + d.display_name + ": " + name + " is not exported by " + state.st.path +
              "; calls to it return the 'not supported' fallback");
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

// On x86-64 ELF a stub is data and assembly (stub_trampolines.hpp): its exported function is one
// indirect jump and its first call a 12-byte trampoline into shared code. Elsewhere, and under
// ThreadSanitizer, which must see the slot's loads to check them, the exported function and the
// first call are C++ functions of the stub's own signature (stub_resolvers.hpp). A line the
// headers decide (CUSHIM_API_DECLARED) always takes the C++ form: top-level assembly would define
// its symbol also where they declare no such function.
#include "stub_resolvers.hpp"
#if defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__) && !defined(CUSHIM_UNDER_TSAN) && \
    !defined(CUSHIM_PORTABLE_STUBS)
#include "stub_trampolines.hpp"
#else
#define CUSHIM_DEFINE_STUB CUSHIM_DEFINE_CXX_STUB
#endif

// Every table line is CUSHIM_API(library, group, ...) or, for a function the headers in use may
// lack, CUSHIM_API_DECLARED(library, group, ...) (declared_functions.hpp); the library's
// descriptor file defines CUSHIM_API_<library>(define, group, ...), which reads its group column
// and calls `define` (libraries/*.hpp).
#define CUSHIM_API(lib, group, ret, name, params, args) \
  CUSHIM_API_##lib(CUSHIM_DEFINE_STUB, group, ret, name, params, args)
#include "library_tables.inc"
#undef CUSHIM_API
#undef CUSHIM_API_DECLARED
#undef CUSHIM_DEFINE_DECLARED_STUB
#undef CUSHIM_DEFINE_STUB
#undef CUSHIM_DEFINE_CXX_STUB
#undef CUSHIM_STUB_FALLBACKS
