// How the exported stub's slot load is written decides what GCC emits before the tail jump.
// run.sh compiles this file with each compiler at -O2 and counts the instructions of every
// function (BENCHMARKS.md, "Per call: g++ copies stack arguments in the stub"). Nothing here is run.
#include <atomic>

namespace {
// The 13-argument shape of cudnnConvolutionForward (7 arguments on the stack) and a no-argument
// function, as function pointer types.
using fn13 = int (*)(void*, const void*, void*, const void*, void*, const void*, void*, int, void*, unsigned long,
                     const void*, void*, void*);
using fn0 = unsigned long (*)();
}  // namespace

std::atomic<fn13> slot13;
std::atomic<fn0> slot0;
fn13 plain13;
fn0 plain0;

#define P13                                                                                                      \
  void *a, const void *b, void *c, const void *d, void *e, const void *f, void *g, int h, void *i, unsigned long j, \
      const void *k, void *l, void *m
#define A13 a, b, c, d, e, f, g, h, i, j, k, l, m

extern "C" {
// cushim today: load(acquire), then call through it.
int args13_acquire(P13) { return slot13.load(std::memory_order_acquire)(A13); }
unsigned long args0_acquire() { return slot0.load(std::memory_order_acquire)(); }
// The proposed fix (x86-64): load(relaxed).
int args13_relaxed(P13) { return slot13.load(std::memory_order_relaxed)(A13); }
unsigned long args0_relaxed() { return slot0.load(std::memory_order_relaxed)(); }
// consume (compilers promote it to acquire).
int args13_consume(P13) { return slot13.load(std::memory_order_consume)(A13); }
unsigned long args0_consume() { return slot0.load(std::memory_order_consume)(); }
// relaxed load followed by an acquire fence (formally acquire, same barrier for the compiler).
int args13_relaxed_fence(P13) {
  fn13 fn = slot13.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  return fn(A13);
}
unsigned long args0_relaxed_fence() {
  fn0 fn = slot0.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  return fn();
}
// A plain pointer: the code a PLT-like jump needs (a data race in C++; reference only).
int args13_plain(P13) { return plain13(A13); }
unsigned long args0_plain() { return plain0(); }
}
