// The portable first call: a C++ function of the stub's own signature that resolves and forwards
// the call's arguments. Used where stub_trampolines.hpp does not apply (Windows, AArch64, ...).
#pragma once

#define CUSHIM_DEFINE_STUB(lib, conv, ret, name, params, args, group)                                   \
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
  CUSHIM_EXPORTED_STUB(conv, ret, name, params, args)
