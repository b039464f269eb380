// What the real cuBLAS and NVRTC return to a program linked with -lcublas -lnvrtc as usual, for
// test_real_opt_in to compare with what they return through cushim: cublasCreate's status
// (without a GPU, the real library's refusal) and the saxpy kernel's PTX, written to argv[1].
#include <cublas_v2.h>

#include <cstdio>
#include <fstream>

#include "support/nvrtc_kernel.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: direct_calls PTX_FILE\n", stderr);
    return 64;
  }
  cublasHandle_t handle = nullptr;
  cublasStatus_t created = cublasCreate(&handle);
  if (created == CUBLAS_STATUS_SUCCESS) cublasDestroy(handle);
  test_support::ptx_result compiled = test_support::compile_saxpy();
  std::ofstream(argv[1], std::ios::binary) << compiled.ptx;
  std::printf("cublasCreate=%d\nnvrtcCompileProgram=%d\n", int(created), int(compiled.compile));
  return 0;
}
