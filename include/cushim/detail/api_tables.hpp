// Picks the generated table of each library's major from the NVIDIA headers in use. Within a
// major, each table's own #if guards pick the functions of the release (README, "Supported
// headers"); headers newer than a table's newest release compile with it.
#pragma once

#include "../api/table_versions.hpp"

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

// CUDA 11.0 - 11.3 and 12.0 are older than every manifest of their major: only the core subset,
// unchanged since 11.8 and kept by the table's guards, is certain to be there.
#if !defined(CUSHIM_NO_CUDART) && !defined(CUSHIM_CUDART_CORE) && CUDART_VERSION < CUSHIM_CUDART_TABLE_MIN
#error \
    "cushim: these CUDA headers are older than the oldest release of their major that cushim's CUDA runtime table describes (CUSHIM_TABLE_CUDART_<major>_MIN); define CUSHIM_CUDART_CORE (core subset) or CUSHIM_NO_CUDART (cuDNN only)"
#endif
