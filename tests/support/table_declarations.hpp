// Declares every function of the cuDNN and CUDA runtime tables in use, as its line gives it, for
// the tests that take each stub's address: the runtime's table also holds functions no header
// included here declares (nvcc's kernel ABI, the per-thread default-stream variants).
#pragma once

#include <cushim/cushim.hpp>
#include <cushim/detail/tables/api_tables.hpp>

#define CUSHIM_API(lib, group, ret, name, params, args) extern "C" ret name params;
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE
#undef CUSHIM_API
