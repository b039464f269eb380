// The x86-64 ELF first call: each stub's slot starts at a 12-byte trampoline that loads the address
// of the stub's constants into r11 and jumps to one shared routine. That routine saves every
// register that can carry an argument (System V: rdi, rsi, rdx, rcx, r8, r9, rax for a variadic
// call's count, xmm0-xmm7), asks first_call() what to call, restores them and jumps there with the
// stack as the caller left it. A stub then costs its exported function, the trampoline and its
// constants, instead of a C++ function of its own signature that copies its arguments around a call
// (Implib.so's trampolines work the same way).
#pragma once

#include "first_call.hpp"
#include "../platform/local_binding.hpp"

namespace cushim {
namespace detail {
namespace {

// A stub's constants, where its trampoline points: its slot, and what resolve() takes.
struct trampoline_entry {
  platform::any_function* slot;
  stub_call call;
};

}  // namespace
}  // namespace detail
}  // namespace cushim

// Called from the shared routine with the stub's constants; never throws (resolve() does not),
// though a cancelled thread unwinds through it, which the routine's CFI allows.
extern "C" __attribute__((visibility("hidden"))) ::cushim::detail::platform::any_function cushim_first_call(
    const ::cushim::detail::trampoline_entry* e) {
  ::cushim::detail::resolution r = ::cushim::detail::resolve(e->call);
  if (r.final) __atomic_store_n(e->slot, r.function, __ATOMIC_RELEASE);
  return r.function;
}

// -fcf-protection: the slot's indirect jump lands on the trampoline, which must start with endbr64.
#if defined(__CET__) && (__CET__ & 1)
#define CUSHIM_BRANCH_TARGET "endbr64\n"
#else
#define CUSHIM_BRANCH_TARGET
#endif

// The frame: rbp, then 64 bytes of general registers and 128 of xmm registers, so that the call
// into first_call() sees a 16-byte aligned stack.
__asm__(
    ".pushsection .text\n"
    ".p2align 4\n"
    ".globl cushim_shared_first_call\n"
    ".hidden cushim_shared_first_call\n"
    ".type cushim_shared_first_call, @function\n"
    "cushim_shared_first_call:\n"
    ".cfi_startproc\n"
    "pushq %rbp\n"
    ".cfi_def_cfa_offset 16\n"
    ".cfi_offset %rbp, -16\n"
    "movq %rsp, %rbp\n"
    ".cfi_def_cfa_register %rbp\n"
    "subq $192, %rsp\n"
    "movq %rdi, 0(%rsp)\n"
    "movq %rsi, 8(%rsp)\n"
    "movq %rdx, 16(%rsp)\n"
    "movq %rcx, 24(%rsp)\n"
    "movq %r8, 32(%rsp)\n"
    "movq %r9, 40(%rsp)\n"
    "movq %rax, 48(%rsp)\n"
    "movaps %xmm0, 64(%rsp)\n"
    "movaps %xmm1, 80(%rsp)\n"
    "movaps %xmm2, 96(%rsp)\n"
    "movaps %xmm3, 112(%rsp)\n"
    "movaps %xmm4, 128(%rsp)\n"
    "movaps %xmm5, 144(%rsp)\n"
    "movaps %xmm6, 160(%rsp)\n"
    "movaps %xmm7, 176(%rsp)\n"
    "movq %r11, %rdi\n"
    "call cushim_first_call\n"
    "movq %rax, %r11\n"
    "movq 0(%rsp), %rdi\n"
    "movq 8(%rsp), %rsi\n"
    "movq 16(%rsp), %rdx\n"
    "movq 24(%rsp), %rcx\n"
    "movq 32(%rsp), %r8\n"
    "movq 40(%rsp), %r9\n"
    "movq 48(%rsp), %rax\n"
    "movaps 64(%rsp), %xmm0\n"
    "movaps 80(%rsp), %xmm1\n"
    "movaps 96(%rsp), %xmm2\n"
    "movaps 112(%rsp), %xmm3\n"
    "movaps 128(%rsp), %xmm4\n"
    "movaps 144(%rsp), %xmm5\n"
    "movaps 160(%rsp), %xmm6\n"
    "movaps 176(%rsp), %xmm7\n"
    "movq %rbp, %rsp\n"
    "popq %rbp\n"
    ".cfi_def_cfa %rsp, 8\n"
    "jmp *%r11\n"
    ".cfi_endproc\n"
    ".size cushim_shared_first_call, .-cushim_shared_first_call\n"
    ".popsection\n");

// clang-format off
// The start of a function in assembly: `symbol`, global, with a binding directive (a whole line, or
// nothing for default visibility).
#define CUSHIM_ASM_FUNCTION(symbol, binding) \
  ".globl " symbol "\n" binding ".type " symbol ", @function\n" symbol ":\n"
#define CUSHIM_ASM_END(symbol) ".size " symbol ", .-" symbol "\n"

// One stub, all of it data and assembly: its slot (which starts at the trampoline), its constants,
// the trampoline, and the exported function, one indirect jump through the slot. Slot, trampoline
// and constants are hidden symbols named after the function, so that assembly and C++ can name
// each other (also under -flto). The redeclaration makes the compiler check the table's prototype
// against the header's declaration.
#define CUSHIM_DEFINE_STUB(lib, conv, ret, name, params, args, group)                                  \
  extern "C" ret conv name params;                                                                     \
  extern "C" {                                                                                         \
  __attribute__((visibility("hidden"))) void cushim_trampoline_##name();                               \
  __attribute__((visibility("hidden")))                                                          \
      ::cushim::detail::platform::any_function cushim_slot_##name = &cushim_trampoline_##name;         \
  __attribute__((visibility("hidden"))) extern const ::cushim::detail::trampoline_entry          \
      cushim_entry_##name;                                                                             \
  }                                                                                                    \
  const ::cushim::detail::trampoline_entry cushim_entry_##name = {&cushim_slot_##name,                 \
      {::cushim::library::lib, #name, #group, CUSHIM_STUB_FALLBACKS(lib, ret, name, params)}};         \
  __asm__(".pushsection .text\n"                                                                       \
          CUSHIM_ASM_FUNCTION("cushim_trampoline_" #name,                                              \
                              ".hidden cushim_trampoline_" #name "\n")                                 \
          CUSHIM_BRANCH_TARGET                                                                         \
          "leaq cushim_entry_" #name "(%rip), %r11\n"                                                  \
          "jmp cushim_shared_first_call\n"                                                             \
          CUSHIM_ASM_END("cushim_trampoline_" #name)                                                   \
          CUSHIM_ASM_FUNCTION(#name, CUSHIM_LOCAL_BINDING_DIRECTIVE(#name))                            \
          ".cfi_startproc\n"                                                                           \
          CUSHIM_BRANCH_TARGET                                                                         \
          "jmp *cushim_slot_" #name "(%rip)\n"                                                         \
          ".cfi_endproc\n"                                                                             \
          CUSHIM_ASM_END(#name)                                                                        \
          CUSHIM_STUB_SYMVER(name)                                                                     \
          ".popsection\n");
// clang-format on
