// Compile-time baseline: what a TU that calls cuDNN includes without cushim.
#include <cuda_runtime_api.h>
#include <cudnn.h>

size_t bench_use() { return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr); }
