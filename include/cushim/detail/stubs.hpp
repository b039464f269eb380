// Self-patching slots: each exported cudnn*/cuda* function jumps through an atomic pointer that
// starts at a resolver. The first call loads the library, finds the symbol (or picks a typed
// fallback), stores it in the slot and forwards; later calls are one load and one indirect jump.
#pragma once

#include <atomic>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "fail_fast.hpp"
#include "libraries.hpp"
#include "local_binding.hpp"
#include "loader.hpp"

namespace cushim {
namespace detail {
namespace {

enum class failure { library_unavailable, function_missing };

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

// What a function that returns a handle (nvcc's __cudaRegisterFatBinary) gives when it cannot reach
// the library: not null, and the program only ever passes it back to the library's fallbacks.
inline void** placeholder_handle() {
  static void* handle = nullptr;
  return &handle;
}

// The value a function returns when it cannot reach the real library (README.md, "Error codes").
template <class R>
struct fallback {
  library lib;
  const char* name;
  failure why;

  template <class... A>
  R operator()(A... args) const {
    const library_descriptor& d = descriptor_of(lib);
    // Count and version queries report 0 instead of leaving the caller's variable unset; text
    // queries that answer through a pointer (cuGetErrorString) point it at the explanation.
    if (names_one_of(d.zeroed_outputs, name)) (zero(args), ...);
    if (names_one_of(d.text_outputs, name)) (point_at_text(d, args), ...);
    if constexpr (has_fallback_status<R>::value) {
      return why == failure::library_unavailable ? fallback_status<R>::unavailable : fallback_status<R>::missing;
    } else if constexpr (std::is_same_v<R, const char*>) {
      return text(d);
    } else if constexpr (std::is_same_v<R, void**>) {
      return placeholder_handle();
    } else if constexpr (std::is_void_v<R>) {
      // cudnnGetLastErrorString(char* message, size_t max_size)
      if constexpr (sizeof...(A) == 2) write_text(d, args...);
    } else {
      return R{};  // version queries (size_t) return 0; struct results are zeroed
    }
  }

  const char* text(const library_descriptor& d) const {
    return why == failure::library_unavailable ? unavailable_text(d) : d.missing_text;
  }

  template <class A>
  static void zero(A arg) {
    if constexpr (std::is_same_v<A, int*>) {
      if (arg) *arg = 0;
    }
  }

  template <class A>
  void point_at_text(const library_descriptor& d, A arg) const {
    if constexpr (std::is_same_v<A, const char**>) {
      if (arg) *arg = text(d);
    }
  }

  template <class A, class B>
  void write_text(const library_descriptor& d, A message, B size) const {
    if constexpr (std::is_same_v<A, char*> && std::is_integral_v<B>) {
      if (message && size > 0) std::snprintf(message, std::size_t(size), "%s", text(d));
    }
  }
};

}  // namespace
}  // namespace detail
}  // namespace cushim

// The order of the hot-path load. x86-64 gives every load acquire semantics in hardware, while
// g++ 12 treats an acquire load as a barrier and then copies a call's stack arguments before
// the tail jump (25 extra instructions for cudnnConvolutionForward, BENCHMARKS.md). Elsewhere,
// and under ThreadSanitizer (which checks the C++ model, not the hardware), it stays acquire.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSHIM_UNDER_TSAN 1
#endif
#endif
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(__SANITIZE_THREAD__) && !defined(CUSHIM_UNDER_TSAN)
#define CUSHIM_SLOT_LOAD_ORDER std::memory_order_relaxed
#else
#define CUSHIM_SLOT_LOAD_ORDER std::memory_order_acquire
#endif

// One stub per table line, at global scope. Internal names start with cushim_ so that no
// parameter name from NVIDIA's headers can shadow them.
#define CUSHIM_DEFINE_STUB(lib, conv, ret, name, params, args, group)                                 \
  namespace {                                                                                         \
  namespace cushim_stub_##name {                                                                      \
    using cushim_fn_t = ret(conv*) params;                                                            \
    ret conv cushim_unavailable params {                                                              \
      return ::cushim::detail::fallback<ret>{::cushim::library::lib, #name,                           \
                                             ::cushim::detail::failure::library_unavailable} args;    \
    }                                                                                                 \
    ret conv cushim_missing params {                                                                  \
      return ::cushim::detail::fallback<ret>{::cushim::library::lib, #name,                           \
                                             ::cushim::detail::failure::function_missing} args;       \
    }                                                                                                 \
    ret conv cushim_resolve params;                                                                   \
    std::atomic<cushim_fn_t> cushim_slot{&cushim_resolve};                                            \
    ret conv cushim_resolve params {                                                                  \
      using ::cushim::detail::platform::any_function;                                                 \
      ::cushim::detail::resolution cushim_r = ::cushim::detail::resolve(                              \
          ::cushim::library::lib, #name, #group, reinterpret_cast<any_function>(&cushim_unavailable), \
          reinterpret_cast<any_function>(&cushim_missing));                                           \
      auto cushim_f = reinterpret_cast<cushim_fn_t>(cushim_r.function);                               \
      if (cushim_r.final) cushim_slot.store(cushim_f, std::memory_order_release);                     \
      return cushim_f args;                                                                           \
    }                                                                                                 \
  }                                                                                                   \
  }                                                                                                   \
  extern "C" CUSHIM_LOCAL_BINDING ret conv name params {                                              \
    return cushim_stub_##name::cushim_slot.load(CUSHIM_SLOT_LOAD_ORDER) args;                         \
  }

// Every table line is CUSHIM_API(library, group, ...); the library's descriptor file defines
// CUSHIM_API_<library>, which reads its group column (libraries/*.hpp).
#define CUSHIM_API(lib, group, ret, name, params, args) CUSHIM_API_##lib(group, ret, name, params, args)
#include "library_tables.inc"
#undef CUSHIM_API
#undef CUSHIM_DEFINE_STUB
#undef CUSHIM_SLOT_LOAD_ORDER
