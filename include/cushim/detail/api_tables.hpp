// Picks the generated table of each library's major from the NVIDIA headers in use. Within a
// major, each table's own #if guards pick the functions of the release (README, "Supported
// headers"); headers newer than a table's newest release compile with it.
#pragma once

#include "../api/table_versions.hpp"

// CUSHIM_TABLE_MIN(CUBLAS, 12) is CUSHIM_TABLE_CUBLAS_12_MIN, the oldest release a table covers.
#define CUSHIM_TABLE_MIN(table, major) CUSHIM_TABLE_MIN_(table, major)
#define CUSHIM_TABLE_MIN_(table, major) CUSHIM_TABLE_##table##_##major##_MIN

// Every cuDNN 8 and 9 release: 8.0 and 9.0, older than every manifest, get the 8.1 and 9.1 rule.
#if CUDNN_MAJOR == 8
#define CUSHIM_CUDNN_MAJOR 8
#define CUSHIM_CUDNN_TABLE <cushim/api/cudnn_8.inc>
#elif CUDNN_MAJOR == 9
#define CUSHIM_CUDNN_MAJOR 9
#define CUSHIM_CUDNN_TABLE <cushim/api/cudnn_9.inc>
#else
#error "cushim: unsupported cuDNN major version (CUDNN_MAJOR); cushim supports cuDNN 8 and 9"
#endif

#if CUDART_VERSION >= 11000 && CUDART_VERSION < 12000
#define CUSHIM_CUDART_MAJOR 11
#define CUSHIM_CUDART_TABLE <cushim/api/cudart_11.inc>
#elif CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
#define CUSHIM_CUDART_MAJOR 12
#define CUSHIM_CUDART_TABLE <cushim/api/cudart_12.inc>
#elif CUDART_VERSION >= 13000 && CUDART_VERSION < 14000
#define CUSHIM_CUDART_MAJOR 13
#define CUSHIM_CUDART_TABLE <cushim/api/cudart_13.inc>
#else
#error "cushim: unsupported CUDA runtime version (CUDART_VERSION); cushim supports CUDA 11, 12 and 13"
#endif
#define CUSHIM_CUDART_TABLE_MIN CUSHIM_TABLE_MIN(CUDART, CUSHIM_CUDART_MAJOR)

// CUDA 12.0 is older than every manifest of its major (12.1; the 11.0 manifest covers every 11.x).
// Its functions could be asked of its headers, but nvcc's kernel ABI cannot (crt/host_runtime.h
// is not included here), and the 12.x tables' __cudaGetKernel / __cudaLaunchKernel take a
// cudaKernel_t, which 12.1 has and 12.0's headers may lack. Only the core subset, unchanged
// from 11.8 through every 12.x manifest and kept by the table's guards, is certain there.
#if !defined(CUSHIM_NO_CUDART) && !defined(CUSHIM_CUDART_CORE) && CUDART_VERSION < CUSHIM_CUDART_TABLE_MIN
#error \
    "cushim: these CUDA headers are older than the oldest release of their major that cushim's CUDA runtime table describes (CUSHIM_TABLE_CUDART_<major>_MIN); define CUSHIM_CUDART_CORE (core subset) or CUSHIM_NO_CUDART (cuDNN only)"
#endif

// cuBLAS, cuBLASLt and NVRTC ship with the toolkit and their manifests are per toolkit release,
// so their guards test CUDART_VERSION: CUBLAS_VERSION does not follow the toolkit's minor (CUDA
// 11.7 ships cuBLAS 11.10), and nvrtc.h defines no version macro at all.
#ifdef CUSHIM_CUBLAS
#ifndef CUBLAS_VER_MAJOR
#error "cushim: CUSHIM_CUBLAS needs <cublas_v2.h> and <cublasLt.h> included before cushim"
#elif CUBLAS_VER_MAJOR != CUSHIM_CUDART_MAJOR
#error "cushim: the cuBLAS headers (CUBLAS_VER_MAJOR) and the CUDA runtime headers (CUDART_VERSION) are of different CUDA majors"
#elif CUBLAS_VER_MAJOR == 11
#define CUSHIM_CUBLAS_MAJOR 11
#define CUSHIM_CUBLAS_TABLE <cushim/api/cublas_11.inc>
#define CUSHIM_CUBLASLT_TABLE <cushim/api/cublasLt_11.inc>
#elif CUBLAS_VER_MAJOR == 12
#define CUSHIM_CUBLAS_MAJOR 12
#define CUSHIM_CUBLAS_TABLE <cushim/api/cublas_12.inc>
#define CUSHIM_CUBLASLT_TABLE <cushim/api/cublasLt_12.inc>
#else
#define CUSHIM_CUBLAS_MAJOR 13
#define CUSHIM_CUBLAS_TABLE <cushim/api/cublas_13.inc>
#define CUSHIM_CUBLASLT_TABLE <cushim/api/cublasLt_13.inc>
#endif
#define CUSHIM_CUBLASLT_MAJOR CUSHIM_CUBLAS_MAJOR
#if CUDART_VERSION < CUSHIM_TABLE_MIN(CUBLAS, CUSHIM_CUBLAS_MAJOR) || \
    CUDART_VERSION < CUSHIM_TABLE_MIN(CUBLASLT, CUSHIM_CUBLASLT_MAJOR)
#error \
    "cushim: these CUDA headers are older than the oldest release of their major that cushim's cuBLAS and cuBLASLt tables describe (CUSHIM_TABLE_CUBLAS_<major>_MIN)"
#endif
#endif

#ifdef CUSHIM_NVRTC
#define CUSHIM_NVRTC_MAJOR CUSHIM_CUDART_MAJOR
#if CUSHIM_NVRTC_MAJOR == 11
#define CUSHIM_NVRTC_TABLE <cushim/api/nvrtc_11.inc>
#elif CUSHIM_NVRTC_MAJOR == 12
#define CUSHIM_NVRTC_TABLE <cushim/api/nvrtc_12.inc>
#else
#define CUSHIM_NVRTC_TABLE <cushim/api/nvrtc_13.inc>
#endif
#if CUDART_VERSION < CUSHIM_TABLE_MIN(NVRTC, CUSHIM_NVRTC_MAJOR)
#error \
    "cushim: these CUDA headers are older than the oldest release of their major that cushim's NVRTC table describes (CUSHIM_TABLE_NVRTC_<major>_MIN)"
#endif
#endif

// The driver API's own cuda.h says its release: CUDA_VERSION.
#ifdef CUSHIM_CUDA_DRIVER
#ifndef CUDA_VERSION
#error "cushim: CUSHIM_CUDA_DRIVER needs <cuda.h> included before cushim"
#elif CUDA_VERSION >= 11000 && CUDA_VERSION < 12000
#define CUSHIM_CUDA_DRIVER_MAJOR 11
#define CUSHIM_CUDA_DRIVER_TABLE <cushim/api/cuda_driver_11.inc>
#elif CUDA_VERSION >= 12000 && CUDA_VERSION < 13000
#define CUSHIM_CUDA_DRIVER_MAJOR 12
#define CUSHIM_CUDA_DRIVER_TABLE <cushim/api/cuda_driver_12.inc>
#elif CUDA_VERSION >= 13000 && CUDA_VERSION < 14000
#define CUSHIM_CUDA_DRIVER_MAJOR 13
#define CUSHIM_CUDA_DRIVER_TABLE <cushim/api/cuda_driver_13.inc>
#else
#error "cushim: unsupported CUDA driver API version (CUDA_VERSION); cushim supports CUDA 11, 12 and 13"
#endif
#if CUDA_VERSION < CUSHIM_TABLE_MIN(CUDA_DRIVER, CUSHIM_CUDA_DRIVER_MAJOR)
#error \
    "cushim: this cuda.h is older than the oldest release of its major that cushim's driver API table describes (CUSHIM_TABLE_CUDA_DRIVER_<major>_MIN)"
#endif
#endif

// The functions of optional headers that a shimmed library exports (tools/libraries.json
// "extends"): cuda_profiler_api.h and the OpenGL, EGL and VDPAU interop headers (the runtime),
// cublasXt.h and cublas.h's legacy API (cuBLAS), cudaProfiler.h (the driver API). One table each,
// for every CUDA major: exact for 13.0 on, and older headers decide (README, "Supported headers");
// library_tables.inc includes one only where the program included its header before cushim.
#define CUSHIM_CUDART_PROFILER_TABLE <cushim/api/cudart_profiler_13.inc>
#define CUSHIM_CUDART_GL_TABLE <cushim/api/cudart_gl_13.inc>
#define CUSHIM_CUDART_EGL_TABLE <cushim/api/cudart_egl_13.inc>
#define CUSHIM_CUDART_VDPAU_TABLE <cushim/api/cudart_vdpau_13.inc>
#define CUSHIM_CUBLAS_XT_TABLE <cushim/api/cublas_xt_13.inc>
#define CUSHIM_CUBLAS_LEGACY_TABLE <cushim/api/cublas_legacy_13.inc>
#define CUSHIM_CUDA_DRIVER_PROFILER_TABLE <cushim/api/cuda_driver_profiler_13.inc>
