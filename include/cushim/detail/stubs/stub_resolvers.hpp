// The portable first call: a C++ function of the stub's own signature that resolves and forwards
// the call's arguments. CUSHIM_DEFINE_STUB where stub_trampolines.hpp does not apply (Windows,
// AArch64, ...), and everywhere the stub of a line the headers decide (declared_functions.hpp):
// its exported function is a C++ definition, which an earlier inline declaration makes inline.
#pragma once

#include "first_call.hpp"
#include "../platform/local_binding.hpp"

// The order of the hot-path load. x86-64 gives every load acquire semantics in hardware, while
// g++ 12 treats an acquire load as a barrier and then copies a call's stack arguments before
// the tail jump (25 extra instructions for cudnnConvolutionForward, BENCHMARKS.md). Elsewhere,
// and under ThreadSanitizer (which checks the C++ model, not the hardware), it stays acquire.
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(CUSHIM_UNDER_TSAN)
#define CUSHIM_SLOT_LOAD_ORDER __ATOMIC_RELAXED
#else
#define CUSHIM_SLOT_LOAD_ORDER __ATOMIC_ACQUIRE
#endif

// A slot may hold a fallback of another signature (fallbacks.hpp), which clang's
// -fsanitize=function would report at the call; the call is what every ABI cushim builds for allows.
#if defined(__clang__)
#define CUSHIM_CALLS_ANY_SIGNATURE __attribute__((no_sanitize("function")))
#else
#define CUSHIM_CALLS_ANY_SIGNATURE
#endif

#define CUSHIM_DEFINE_CXX_STUB(lib, conv, ret, name, params, args, group)                               \
  namespace {                                                                                           \
  namespace cushim_stub_##name {                                                                        \
    using cushim_fn_t = ret(conv*) params;                                                              \
    ret conv cushim_first_call params;                                                                  \
    cushim_fn_t cushim_slot = &cushim_first_call;                                                       \
    CUSHIM_CALLS_ANY_SIGNATURE ret conv cushim_first_call params {                                      \
      constexpr ::cushim::detail::stub_call cushim_call{::cushim::library::lib, #name, #group,          \
                                                        CUSHIM_STUB_FALLBACKS(lib, ret, name, params)}; \
      ::cushim::detail::resolution cushim_r = ::cushim::detail::resolve(cushim_call);                   \
      auto cushim_f = reinterpret_cast<cushim_fn_t>(cushim_r.function);                                 \
      if (cushim_r.final) __atomic_store_n(&cushim_slot, cushim_f, __ATOMIC_RELEASE);                   \
      return cushim_f args;                                                                             \
    }                                                                                                   \
  }                                                                                                     \
  }                                                                                                     \
  extern "C" CUSHIM_CALLS_ANY_SIGNATURE CUSHIM_STUB_EXPORTED ret conv name params {                     \
    return __atomic_load_n(&cushim_stub_##name::cushim_slot, CUSHIM_SLOT_LOAD_ORDER) args;              \
  }                                                                                                     \
  CUSHIM_STUB_LOCAL_BINDING(name)                                                                       \
  CUSHIM_STUB_VERSION(name)
