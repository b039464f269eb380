// The application's one CUSHIM_IMPLEMENTATION translation unit as a program that opts into
// nothing writes it: cuDNN and the CUDA runtime. Compiled once and linked into each test program
// of that configuration that uses only the public API (tests/CMakeLists.txt).
#define CUSHIM_IMPLEMENTATION
#include <cushim/diagnostics.hpp>

// test_without_opt_in: the implementation of a program that opted into nothing includes no header
// of the opt-in libraries.
#if defined(CUBLAS_VER_MAJOR) || defined(CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA) || defined(__NVRTC_H__) || \
    defined(CUDA_VERSION)
#error "cushim included a header of a library this program did not opt into"
#endif
