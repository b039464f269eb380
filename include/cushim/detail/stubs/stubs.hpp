// Self-patching slots: each exported cudnn*/cuda* function jumps through an atomic pointer that
// starts at its first-call path. The first call loads the library, finds the symbol (or picks a
// fallback), stores it in the slot and forwards; later calls are one load and one indirect jump.
#pragma once

#include "declared_functions.hpp"
#include "first_call.hpp"
#include "../platform/local_binding.hpp"

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
#include "../tables/library_tables.inc"
#undef CUSHIM_API
#undef CUSHIM_API_DECLARED
#undef CUSHIM_DEFINE_DECLARED_STUB
#undef CUSHIM_DEFINE_STUB
#undef CUSHIM_DEFINE_CXX_STUB
#undef CUSHIM_STUB_FALLBACKS
