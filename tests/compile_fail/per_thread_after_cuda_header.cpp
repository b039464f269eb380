// With CUDA_API_PER_THREAD_DEFAULT_STREAM, a CUDA header read before cushim in the implementation
// file declares cudaLaunchKernel as a static function; cushim stops with what to do instead.
#include <cuda_runtime_api.h>
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
