// kernel_saxpy's CUSHIM_IMPLEMENTATION file: a .cpp, because nvcc reads a .cu with cuda_runtime.h
// first, whose declarations the stubs cannot be defined after (docs/building.md, "Programs with kernels").
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
