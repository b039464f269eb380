// What the real cuBLAS, NVRTC and the plain libraries return to a program linked with them as usual
// (-lcublas -lnvrtc, and -l of each plain library), for test_real_opt_in to compare with what they
// return through cushim: cublasCreate's status (without a GPU, the real library's refusal), the
// saxpy kernel's PTX, written to argv[1], and support/library_work.hpp's results.
#include <cublas_v2.h>

#include <cstdio>
#include <fstream>

#include "support/nvrtc_kernel.hpp"
#ifdef CUSHIM_LIBRARY_WORK  // the build links the plain libraries too, each opted into
#include "support/opt_in_headers.hpp"
#include "support/library_work.hpp"
#endif

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
#ifdef CUSHIM_LIBRARY_WORK
  for (const auto& [key, value] : test_support::library_work(compiled.ptx)) {
    std::printf("%s=%s\n", key.c_str(), value.c_str());
  }
#endif
  return 0;
}
