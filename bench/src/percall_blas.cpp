// The per-call program of the opt-in libraries: N calls of cublasSgemm_v2 (14 arguments, 7 on the
// stack), cufftExecC2C (4) or cusparseSpMV (10, 4 on the stack) in an opaque loop, against fixture
// libraries whose function returns at once (src/fixture_cublas.c, src/fixture_math.c). Linked two
// ways by run.sh: directly against the fixtures, and through cushim opted into every library
// (src/cushim_impl_opt_in.cpp); the call site is the same object, including only NVIDIA's headers.
//
//   percall_blas sgemm|c2c|spmv N
//
// Exit 0 when every call reached the fixture, 3 when a call returned a fallback value.
#include <cublas_v2.h>
#include <cufft.h>
#include <cusparse.h>

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

__attribute__((noinline)) void loop_c2c(long n) {
  auto data = static_cast<cufftComplex*>(opaque_pointer);
  cufftHandle plan = opaque_size;
  for (long i = 0; i < n; ++i) sink_status = cufftExecC2C(plan, data, data, CUFFT_FORWARD);
}

__attribute__((noinline)) void loop_spmv(long n) {
  auto handle = static_cast<cusparseHandle_t>(opaque_pointer);
  auto matrix = static_cast<cusparseConstSpMatDescr_t>(opaque_pointer);
  auto x = static_cast<cusparseConstDnVecDescr_t>(opaque_pointer);
  auto y = static_cast<cusparseDnVecDescr_t>(opaque_pointer);
  const void* scalar = opaque_pointer;
  for (long i = 0; i < n; ++i) {
    sink_status = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, scalar, matrix, x, scalar, y, CUDA_R_32F,
                               CUSPARSE_SPMV_ALG_DEFAULT, opaque_pointer);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: percall_blas sgemm|c2c|spmv N\n");
    return 64;
  }
  long n = std::atol(argv[2]);
  if (std::strcmp(argv[1], "sgemm") == 0) {
    loop_sgemm(n);
  } else if (std::strcmp(argv[1], "c2c") == 0) {
    loop_c2c(n);
  } else if (std::strcmp(argv[1], "spmv") == 0) {
    loop_spmv(n);
  } else {
    std::fprintf(stderr, "usage: percall_blas sgemm|c2c|spmv N\n");
    return 64;
  }
  return sink_status == 0 ? 0 : 3;
}
