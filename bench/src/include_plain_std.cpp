// Attribution only: the plain headers plus the standard headers cushim/status.hpp adds
// (<string>, <string_view>, <vector>), to show where the include overhead comes from.
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <string>
#include <string_view>
#include <vector>

size_t bench_use() { return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr); }
