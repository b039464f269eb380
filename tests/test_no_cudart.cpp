// CUSHIM_NO_CUDART: cuDNN only, for programs that link the CUDA runtime themselves.
#include <doctest/doctest.h>

#define CUSHIM_NO_CUDART
#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>
#include <string>

#include "support/command_output.hpp"

TEST_CASE("cuDNN is shimmed, the CUDA runtime is left to the program") {
  CHECK(cudnnGetVersion() == CUDNN_VERSION);
  CHECK_FALSE(cushim::available(cushim::library::cudart));
  CHECK(cushim::status_of(cushim::library::cudart).code == cushim::error_code::disabled);
  CHECK(cushim::error_of(cushim::library::cudart) == cushim::error_code::disabled);
  CHECK(cushim::error_of(cushim::library::cudnn) == cushim::error_code::ok);
  std::string symbols = test_support::own_defined_symbols();
  REQUIRE(symbols.find(" T cudnnCreate\n") != std::string::npos);
  CHECK(symbols.find(" T cudaMalloc\n") == std::string::npos);
  CHECK(symbols.find(" T cudaGetDeviceCount\n") == std::string::npos);
  CHECK(cushim::explain().find("CUDA runtime: not shimmed by this build (CUSHIM_NO_CUDART)") != std::string::npos);
}
