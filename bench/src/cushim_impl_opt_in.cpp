// The implementation TU of a program that opts into every library: cuBLAS and cuBLASLt, NVRTC, the
// driver API, cuFFT, cuRAND, cuSPARSE, cuSOLVER, nvJitLink, NVML and NCCL besides cuDNN and the
// runtime (their main headers first, as README.md, "Macros" says; cushim includes the others). bench/run.sh
// puts a stand-in nvml.h on the include path where the toolkit has none (tests/api_tables/synthetic_nvml.py).
#include <cublas_v2.h>
#include <cuda.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <nccl.h>
#include <nvJitLink.h>
#include <nvml.h>
#include <nvrtc.h>

#define CUSHIM_CUBLAS
#define CUSHIM_NVRTC
#define CUSHIM_CUDA_DRIVER
#define CUSHIM_CUFFT
#define CUSHIM_CURAND
#define CUSHIM_CUSPARSE
#define CUSHIM_CUSOLVER
#define CUSHIM_NVJITLINK
#define CUSHIM_NVML
#define CUSHIM_NCCL
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
