// Stand-in for cuDNN 8.9 headers, so only the CUDA runtime version is out of range.
#pragma once
#include <cuda_runtime_api.h>
#define CUDNN_MAJOR 8
#define CUDNN_MINOR 9
#define CUDNN_PATCHLEVEL 1
#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
