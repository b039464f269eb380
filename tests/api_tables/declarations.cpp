// The tables api_tables.hpp picks for the real headers, every library opted in: each line
// redeclares its function, and a prototype that differs from the header's declaration does not
// compile (two C functions of one name). No stub is defined: nothing is linked. NVML's nvml.h is
// not in every toolkit (the 13.0 one here has none): its table is checked where it is.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cufftXt.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusolverRf.h>
#include <cusolverSp.h>
#include <cusparse.h>
#include <nccl.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#if __has_include(<nvml.h>)
#include <nvml.h>
#define CUSHIM_NVML
#endif

#define CUSHIM_CUBLAS
#define CUSHIM_NVRTC
#define CUSHIM_CUDA_DRIVER
#define CUSHIM_CUFFT
#define CUSHIM_CURAND
#define CUSHIM_CUSPARSE
#define CUSHIM_CUSOLVER
#define CUSHIM_NVJITLINK
#define CUSHIM_NCCL
#include <cushim/detail/api_tables.hpp>

#define CUSHIM_API(library, group, ret, name, params, args) extern "C" ret name params;
#include <cushim/detail/library_tables.inc>
