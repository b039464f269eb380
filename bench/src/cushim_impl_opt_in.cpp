// The implementation TU of a program that opts into every library: cuBLAS and cuBLASLt, NVRTC and
// the driver API besides cuDNN and the runtime (their headers first, as README's "Macros" says).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <nvrtc.h>

#define CUSHIM_CUBLAS
#define CUSHIM_NVRTC
#define CUSHIM_CUDA_DRIVER
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
