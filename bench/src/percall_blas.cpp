// The per-call program of cuBLAS: N calls of cublasSgemm_v2 (14 arguments, 7 on the stack) in an
// opaque loop, against a fixture libcublas whose function returns at once (src/fixture_cublas.c).
// Linked two ways by run.sh: directly against the fixture, and through cushim opted into cuBLAS
// (src/cushim_impl_opt_in.cpp); the call site is the same object, including only NVIDIA's header.
//
//   percall_blas sgemm N
//
// Exit 0 when every call reached the fixture, 3 when a call returned a fallback value.
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

volatile int sink_status;
void* volatile opaque_pointer = nullptr;
volatile int opaque_size = 1;

__attribute__((noinline)) void loop_sgemm(long n) {
  auto handle = static_cast<cublasHandle_t>(opaque_pointer);
  auto data = static_cast<float*>(opaque_pointer);
  int size = opaque_size;
  for (long i = 0; i < n; ++i) {
    sink_status =
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, size, size, size, data, data, size, data, size, data, data, size);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "sgemm") != 0) {
    std::fprintf(stderr, "usage: percall_blas sgemm N\n");
    return 64;
  }
  loop_sgemm(std::atol(argv[2]));
  return sink_status == CUBLAS_STATUS_SUCCESS ? 0 : 3;
}
