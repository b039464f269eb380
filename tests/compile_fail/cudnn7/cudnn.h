// Stand-in for the cuDNN 7 headers: only the version macros matter here.
#pragma once
#include <cuda_runtime_api.h>
#define CUDNN_MAJOR 7
#define CUDNN_MINOR 6
#define CUDNN_PATCHLEVEL 5
#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
