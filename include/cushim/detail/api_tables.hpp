// Picks the generated tables that match the cuDNN and CUDA runtime headers in use.
#pragma once

#include "../api/table_versions.hpp"

#if CUDNN_MAJOR == 8
#if CUDNN_VERSION < CUSHIM_TABLE_CUDNN_8_MIN
#error "cushim: these cuDNN 8 headers are older than 8.1, the oldest cushim's cudnn_8 table covers"
#endif
#define CUSHIM_CUDNN_TABLE <cushim/api/cudnn_8.inc>
#elif CUDNN_MAJOR == 9
#if CUDNN_VERSION < CUSHIM_TABLE_CUDNN_9_MIN
#error "cushim: these cuDNN 9 headers are older than 9.6, the oldest cushim's cudnn_9 table covers"
#endif
#define CUSHIM_CUDNN_TABLE <cushim/api/cudnn_9.inc>
#else
#error "cushim: unsupported cuDNN major version (CUDNN_MAJOR); cushim supports cuDNN 8 and 9"
#endif

#if CUDART_VERSION >= 11000 && CUDART_VERSION < 12000
#define CUSHIM_CUDART_MAJOR 11
#define CUSHIM_CUDART_TABLE <cushim/api/cudart_11.inc>
#define CUSHIM_CUDART_TABLE_MIN CUSHIM_TABLE_CUDART_11_MIN
#elif CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
#define CUSHIM_CUDART_MAJOR 12
#define CUSHIM_CUDART_TABLE <cushim/api/cudart_12.inc>
#define CUSHIM_CUDART_TABLE_MIN CUSHIM_TABLE_CUDART_12_MIN
#elif CUDART_VERSION >= 13000 && CUDART_VERSION < 14000
#define CUSHIM_CUDART_MAJOR 13
#define CUSHIM_CUDART_TABLE <cushim/api/cudart_13.inc>
#define CUSHIM_CUDART_TABLE_MIN CUSHIM_TABLE_CUDART_13_MIN
#else
#error "cushim: unsupported CUDA runtime version (CUDART_VERSION); cushim supports CUDA 11, 12 and 13"
#endif

#if !defined(CUSHIM_NO_CUDART) && !defined(CUSHIM_CUDART_CORE) && CUDART_VERSION < CUSHIM_CUDART_TABLE_MIN
#error \
    "cushim: these CUDA headers are older than cushim's CUDA runtime table for this major; define CUSHIM_CUDART_CORE (core subset) or CUSHIM_NO_CUDART (cuDNN only)"
#endif
