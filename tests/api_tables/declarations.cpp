// The tables api_tables.hpp picks for the real headers, every library opted in: each line
// redeclares its function, and a prototype that differs from the header's declaration does not
// compile (two C functions of one name). No stub is defined: nothing is linked.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <nvrtc.h>

#define CUSHIM_CUBLAS
#define CUSHIM_NVRTC
#define CUSHIM_CUDA_DRIVER
#include <cushim/detail/api_tables.hpp>

#define CUSHIM_API(library, group, ret, name, params, args) extern "C" ret name params;
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE
#include CUSHIM_CUBLAS_TABLE
#include CUSHIM_CUBLASLT_TABLE
#include CUSHIM_NVRTC_TABLE
#include CUSHIM_CUDA_DRIVER_TABLE
