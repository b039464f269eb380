// CUSHIM_CUDART_CORE: only the core CUDA runtime subset is shimmed.
#include <doctest/doctest.h>

#define CUSHIM_CUDART_CORE
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
#include <string>

#include "support/command_output.hpp"

TEST_CASE("core functions are shimmed and reach the real runtime; the rest are not defined") {
  int version = 0;
  CHECK(cudaRuntimeGetVersion(&version) == cudaSuccess);
  CHECK(version / 1000 == CUDART_VERSION / 1000);
  std::string symbols = test_support::own_defined_symbols();
  for (const char* core : {"cudaMalloc", "cudaFree", "cudaMemcpy", "cudaStreamCreate", "cudaEventRecord",
                           "cudaGetDeviceCount", "cudaGetErrorString", "cudaDriverGetVersion"}) {
    CHECK_MESSAGE(symbols.find(std::string(" T ") + core + "\n") != std::string::npos, core);
  }
  for (const char* other : {"cudaGraphCreate", "cudaLaunchKernel", "cudaCreateTextureObject"}) {
    CHECK_MESSAGE(symbols.find(std::string(" T ") + other + "\n") == std::string::npos, other);
  }
}
