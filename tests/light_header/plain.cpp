// The baseline of light_header_check: what a TU that calls cuDNN includes without cushim.
#include <cuda_runtime_api.h>
#include <cudnn.h>

size_t use() { return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr); }
