// The NVIDIA headers cushim's public header includes: <cushim/cushim.hpp> includes this (after its
// checks of the implementation file), and the API tables (tables/api_tables.hpp) pick their tables
// from the versions these headers declare.
#pragma once

#include <cuda_runtime_api.h>
#include <cudnn.h>
