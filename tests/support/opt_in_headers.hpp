// The NVIDIA headers of the libraries a test program opts into, included before cushim as a
// program must (README, "Macros"). The build defines CUSHIM_CUBLAS, CUSHIM_NVRTC and
// CUSHIM_CUDA_DRIVER the same for every translation unit of a program.
#pragma once

#ifdef CUSHIM_CUBLAS
#include <cublasLt.h>
#ifdef CUSHIM_TEST_LEGACY_CUBLAS
#include <cublas.h>  // the legacy API instead of cublas_v2.h: a program includes one of the two
#else
#include <cublas_v2.h>
#endif
#endif
#ifdef CUSHIM_NVRTC
#include <nvrtc.h>
#endif
#ifdef CUSHIM_CUDA_DRIVER
#include <cuda.h>
#endif
// The optional headers whose functions cushim shims where a program includes them before cushim
// (README, "Supported headers"): the profilers, the graphics interop, cuBLASXt. The test build
// defines CUSHIM_TEST_OPTIONAL_HEADERS with the stand-ins of tools/graphics_headers on the path.
#ifdef CUSHIM_TEST_OPTIONAL_HEADERS
#include <cuda_egl_interop.h>
#include <cuda_gl_interop.h>
#include <cuda_profiler_api.h>
#include <cuda_vdpau_interop.h>
#ifdef CUSHIM_CUBLAS
#include <cublasXt.h>
#endif
#ifdef CUSHIM_CUDA_DRIVER
#include <cudaProfiler.h>
#endif
#endif
