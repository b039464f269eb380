// CUSHIM_NO_CUDART: cuDNN only, for programs that link the CUDA runtime themselves.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#define CUSHIM_NO_CUDART
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

std::string defined_symbols() {
  std::string out;
  std::string command = "nm --defined-only /proc/" + std::to_string(getpid()) + "/exe";
  if (std::FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    pclose(p);
  }
  return out;
}

}  // namespace

TEST_CASE("cuDNN is shimmed, the CUDA runtime is left to the program") {
  CHECK(cudnnGetVersion() == CUDNN_VERSION);
  CHECK_FALSE(cushim::available(cushim::library::cudart));
  CHECK(cushim::status_of(cushim::library::cudart).code == cushim::error_code::disabled);
  std::string symbols = defined_symbols();
  REQUIRE(symbols.find(" T cudnnCreate\n") != std::string::npos);
  CHECK(symbols.find(" T cudaMalloc\n") == std::string::npos);
  CHECK(symbols.find(" T cudaGetDeviceCount\n") == std::string::npos);
  CHECK(cushim::explain().find("CUDA runtime: not shimmed by this build (CUSHIM_NO_CUDART)") != std::string::npos);
}
