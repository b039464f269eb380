// The NVIDIA headers of the libraries a test program opts into, included before cushim as a
// program must (README, "Macros"). The build defines CUSHIM_CUBLAS, CUSHIM_NVRTC and
// CUSHIM_CUDA_DRIVER the same for every translation unit of a program.
#pragma once

#ifdef CUSHIM_CUBLAS
#include <cublasLt.h>
#include <cublas_v2.h>
#endif
#ifdef CUSHIM_NVRTC
#include <nvrtc.h>
#endif
#ifdef CUSHIM_CUDA_DRIVER
#include <cuda.h>
#endif
