// A program that calls cuBLAS through cushim and links a library that calls cuBLAS itself, as
// NVIDIA's cuSOLVER does (CUSHIM_WITH_CUSOLVER; tests/CMakeLists.txt, calls_between): ld.bfd then
// exports the stubs that library imports. Built without it and with -rdynamic, every stub is
// exported, and the cuBLAS that cushim loads calls its cuBLASLt. Prints what each call reached,
// the library's own calls with the file their reference was bound to (tests/fixtures/fake_library.c).
// With the argument "cusolver" it only loads the real cuSOLVER through cushim, which brings in the
// cuBLAS, cuBLASLt, cuSPARSE and nvJitLink it was linked against and calls into them.
#include "support/opt_in_headers.hpp"

#include <cushim/cushim.hpp>

#include <cstdio>
#include <cstring>

#ifdef CUSHIM_WITH_CUSOLVER
extern "C" const char* fake_cusolver_calls_cublas(void);
#endif

int main(int argc, char** argv) {
#ifdef CUSHIM_CUSOLVER
  if (argc > 1 && std::strcmp(argv[1], "cusolver") == 0) {
    int version = 0;
    std::printf("cusolverGetVersion=%d\n", int(cusolverGetVersion(&version)));
    std::printf("cusolver_version=%d\n", version);
    return 0;
  }
#endif
  (void)argc;
  (void)argv;
  std::printf("program_cublas=%s\n", cublasGetStatusString(CUBLAS_STATUS_SUCCESS));
#ifdef CUSHIM_WITH_CUSOLVER
  std::printf("cusolver_cublas=%s\n", fake_cusolver_calls_cublas());
#endif
  std::printf("cublas_cublasLt=%s\n", cublasGetStatusName(CUBLAS_STATUS_SUCCESS));
  return 0;
}
