// Self-patching slots: each exported cudnn*/cuda* function jumps through an atomic pointer that
// starts at a resolver. The first call loads the library, finds the symbol (or picks a typed
// fallback), stores it in the slot and forwards; later calls are one load and one indirect jump.
#pragma once

#include <atomic>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "fail_fast.hpp"
#include "library.hpp"

namespace cushim {
namespace detail {

enum class failure { library_unavailable, function_missing };

inline library_state& state_of(library lib) { return lib == library::cudnn ? shim().cudnn : shim().cudart; }

// cudart leaves *count untouched when it fails (no driver: error 35); cushim promises 0, as its
// own fallback gives, so callers that ignore the error still see no devices.
inline std::atomic<decltype(&::cudaGetDeviceCount)> real_device_count{nullptr};

inline cudaError_t CUDARTAPI device_count_zero_on_error(int* count) {
  cudaError_t e = real_device_count.load(std::memory_order_acquire)(count);
  if (e != cudaSuccess && count) *count = 0;
  return e;
}

// A cuDNN function whose sub-library is unusable gets the "unavailable" fallback: cuDNN itself
// would abort the process when it fails to load that sub-library. The first call into a
// sub-library checks it (sublibrary_checked_for).
inline bool sublibrary_blocks(library_state& state, const char* name, const char* sublib) {
  if (!sublib) return false;
  const sublibrary* sub = sublibrary_checked_for(state, sublib);
  if (!sub || sub->usable) return false;
  std::lock_guard<std::mutex> lock(state.missing_mutex);
  std::string entry = std::string(name) + "|" + sub->file_name;
  for (const std::string& b : state.blocked_functions) {
    if (b == entry) return true;
  }
  state.blocked_functions.push_back(entry);
  return true;
}

inline platform::any_function resolve(library lib, const char* name, const char* sublib,
                                      platform::any_function unavailable, platform::any_function missing) {
  library_state& state = state_of(lib);
  if (!ensure_loaded(state) || sublibrary_blocks(state, name, sublib)) {
    if (state.fail_fast) stop_the_process(state.spec.display_name, name);
    return unavailable;
  }
  if (platform::any_function f = platform::find_symbol(state.handle, name)) {
    if (lib != library::cudart || std::strcmp(name, "cudaGetDeviceCount") != 0) return f;
    real_device_count.store(reinterpret_cast<decltype(&::cudaGetDeviceCount)>(f), std::memory_order_release);
    return reinterpret_cast<platform::any_function>(&device_count_zero_on_error);
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
    std::lock_guard<std::mutex> lock(shim().options_mutex);
    log_line(shim().opts, std::string("cushim: ") + state.spec.display_name + ": " + name + " is not exported by " +
                              state.st.path + "; calls to it return the 'not supported' fallback");
  }
  return missing;
}

inline const char* fallback_text(library lib, failure why) {
  if (lib == library::cudnn) {
    return why == failure::library_unavailable
               ? "cushim: cuDNN is unavailable; cushim::explain() says why and what to do"
               : "cushim: the loaded cuDNN lacks this function; cushim::explain() says which copy was loaded";
  }
  return why == failure::library_unavailable
             ? "cushim: the CUDA runtime is unavailable; cushim::explain() says why and what to do"
             : "cushim: the loaded CUDA runtime lacks this function; cushim::explain() says which copy was loaded";
}

// Count and version queries report 0 instead of leaving the caller's variable unset.
inline bool zeroes_its_output(const char* name) {
  for (const char* n : {"cudaGetDeviceCount", "cudaRuntimeGetVersion", "cudaDriverGetVersion"}) {
    if (std::strcmp(n, name) == 0) return true;
  }
  return false;
}

// The value a function returns when it cannot reach the real library (README.md, "Error codes").
template <class R>
struct fallback {
  library lib;
  const char* name;
  failure why;

  template <class... A>
  R operator()(A... args) const {
    if constexpr (std::is_same_v<R, cudnnStatus_t>) {
      return why == failure::library_unavailable ? CUDNN_STATUS_NOT_INITIALIZED : CUDNN_STATUS_NOT_SUPPORTED;
    } else if constexpr (std::is_same_v<R, cudaError_t>) {
      if constexpr (sizeof...(A) == 1 && (std::is_same_v<A, int*> && ...)) {
        if (zeroes_its_output(name)) ((args ? void(*args = 0) : void()), ...);
      }
      return why == failure::library_unavailable ? cudaErrorSharedObjectInitFailed
                                                 : cudaErrorSharedObjectSymbolNotFound;
    } else if constexpr (std::is_same_v<R, const char*>) {
      return fallback_text(lib, why);
    } else if constexpr (std::is_void_v<R>) {
      // cudnnGetLastErrorString(char* message, size_t max_size)
      if constexpr (sizeof...(A) == 2) write_text(args...);
    } else {
      return R{};  // version queries (size_t) return 0; struct results are zeroed
    }
  }

  template <class A, class B>
  void write_text(A message, B size) const {
    if constexpr (std::is_same_v<A, char*> && std::is_integral_v<B>) {
      if (message && size > 0) std::snprintf(message, std::size_t(size), "%s", fallback_text(lib, why));
    }
  }
};

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
#define CUSHIM_DEFINE_STUB(lib, conv, ret, name, params, args, sublib)                                         \
  namespace {                                                                                                  \
  namespace cushim_stub_##name {                                                                               \
    using cushim_fn_t = ret(conv*) params;                                                                     \
    ret conv cushim_unavailable params {                                                                       \
      return ::cushim::detail::fallback<ret>{lib, #name, ::cushim::detail::failure::library_unavailable} args; \
    }                                                                                                          \
    ret conv cushim_missing params {                                                                           \
      return ::cushim::detail::fallback<ret>{lib, #name, ::cushim::detail::failure::function_missing} args;    \
    }                                                                                                          \
    ret conv cushim_resolve params;                                                                            \
    std::atomic<cushim_fn_t> cushim_slot{&cushim_resolve};                                                     \
    ret conv cushim_resolve params {                                                                           \
      using ::cushim::detail::platform::any_function;                                                          \
      auto cushim_f = reinterpret_cast<cushim_fn_t>(                                                           \
          ::cushim::detail::resolve(lib, #name, sublib, reinterpret_cast<any_function>(&cushim_unavailable),   \
                                    reinterpret_cast<any_function>(&cushim_missing)));                         \
      cushim_slot.store(cushim_f, std::memory_order_release);                                                  \
      return cushim_f args;                                                                                    \
    }                                                                                                          \
  }                                                                                                            \
  }                                                                                                            \
  extern "C" ret conv name params { return cushim_stub_##name::cushim_slot.load(CUSHIM_SLOT_LOAD_ORDER) args; }

// Every table line is CUSHIM_API(library, group, ...); the library's adapter reads its group:
// cuDNN's sub-library, the CUDA runtime's tier.
#define CUSHIM_API(lib, group, ret, name, params, args) CUSHIM_API_##lib(group, ret, name, params, args)
#define CUSHIM_API_cudnn(sublib, ret, name, params, args) \
  CUSHIM_DEFINE_STUB(::cushim::library::cudnn, CUDNNWINAPI, ret, name, params, args, #sublib)
#define CUSHIM_API_cudart(tier, ret, name, params, args) CUSHIM_CUDART_##tier(ret, name, params, args)
#define CUSHIM_CUDART_core(ret, name, params, args) \
  CUSHIM_DEFINE_STUB(::cushim::library::cudart, CUDARTAPI, ret, name, params, args, nullptr)
#ifdef CUSHIM_CUDART_CORE
#define CUSHIM_CUDART_full(ret, name, params, args)
#else
#define CUSHIM_CUDART_full(ret, name, params, args) \
  CUSHIM_DEFINE_STUB(::cushim::library::cudart, CUDARTAPI, ret, name, params, args, nullptr)
#endif

#include CUSHIM_CUDNN_TABLE
#ifndef CUSHIM_NO_CUDART
#include CUSHIM_CUDART_TABLE
#endif

#undef CUSHIM_API
#undef CUSHIM_API_cudnn
#undef CUSHIM_API_cudart
#undef CUSHIM_CUDART_core
#undef CUSHIM_CUDART_full
#undef CUSHIM_DEFINE_STUB
#undef CUSHIM_SLOT_LOAD_ORDER
