// The real cuDNN and CUDA runtime of this machine, reached through the shim by a program that
// does not link them. Without an NVIDIA driver this is the graceful-degradation path.
#include <doctest/doctest.h>

#include <cushim/status.hpp>  // CUSHIM_IMPLEMENTATION: support/implementation_default.cpp
#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/command_output.hpp"

namespace {

std::string real_path(const std::string& path) {
  char* r = realpath(path.c_str(), nullptr);
  std::string out = r ? r : "";
  std::free(r);
  return out;
}

bool driver_present() { return cushim::explain().find("no NVIDIA driver was found") == std::string::npos; }

}  // namespace

TEST_CASE("the program does not link cuDNN or the CUDA runtime") {
  std::string dynamic = test_support::command_output("readelf -d /proc/" + std::to_string(getpid()) + "/exe");
  REQUIRE(dynamic.find("NEEDED") != std::string::npos);  // readelf ran
  CHECK(dynamic.find("libcudnn") == std::string::npos);
  CHECK(dynamic.find("libcudart") == std::string::npos);
}

TEST_CASE("versions come from the real libraries in the toolkit folder") {
  CHECK(cudnnGetVersion() == CUDNN_VERSION);
  CHECK(cudnnGetCudartVersion() / 1000 == CUDART_VERSION / 1000);
  const cushim::status& dnn = cushim::status_of(cushim::library::cudnn);
  const cushim::status& rt = cushim::status_of(cushim::library::cudart);
  CHECK(dnn.code == cushim::error_code::ok);
  CHECK(rt.code == cushim::error_code::ok);
  CHECK(cushim::error_of(cushim::library::cudnn) == cushim::error_code::ok);
  CHECK(cushim::error_of(cushim::library::cudart) == cushim::error_code::ok);
  CHECK(real_path(dnn.path) == real_path(std::string(CUSHIM_CUDA_LIB_DIR) + "/" + CUSHIM_CUDNN_FILE));
  CHECK(real_path(rt.path) == real_path(std::string(CUSHIM_CUDA_LIB_DIR) + "/" + CUSHIM_CUDART_FILE));
  CHECK(dnn.version == CUDNN_VERSION);
  CHECK(dnn.compiled_version == CUDNN_VERSION);
  CHECK(rt.version / 1000 == CUDART_VERSION / 1000);
  // The toolkit folder (in ld.so.cache here) has cuBLASLt: no warning that cuDNN would miss it.
  for (const cushim::problem& p : dnn.problems) CHECK(p.what.find("libcublasLt.so.") == std::string::npos);
  CHECK(dnn.problems.empty());
}

TEST_CASE("without a driver, calls fail with the documented codes and explain() says why") {
  if (driver_present()) {
    MESSAGE("an NVIDIA driver is present: the no-driver checks do not apply");
    return;
  }
  cudnnHandle_t handle = nullptr;
  CHECK(cudnnCreate(&handle) == CUDNN_STATUS_NOT_INITIALIZED);
  int count = -1;
  CHECK(cudaGetDeviceCount(&count) != cudaSuccess);
  CHECK(count == 0);
  std::string text = cushim::explain();
  CHECK(text.find("NVIDIA driver: not found") != std::string::npos);
  CHECK(text.find("no NVIDIA driver was found: libcuda.so.1 is in none of the") != std::string::npos);
  CHECK(text.find("cuDNN: OK, " + std::to_string(CUDNN_MAJOR) + "." + std::to_string(CUDNN_MINOR)) !=
        std::string::npos);
  CHECK(text.find(cushim::status_of(cushim::library::cudnn).path) != std::string::npos);
  CHECK(text.find(cushim::status_of(cushim::library::cudart).path) != std::string::npos);
}

TEST_CASE("explain_json reports both libraries as available") {
  std::string json = cushim::explain_json();
  CHECK(json.find("\"library\":\"cudnn\",\"available\":true,\"code\":\"ok\",\"code_value\":0") != std::string::npos);
  CHECK(json.find("\"library\":\"cudart\",\"available\":true,\"code\":\"ok\",\"code_value\":0") != std::string::npos);
  CHECK(json.find("\"version\":" + std::to_string(CUDNN_VERSION)) != std::string::npos);
}
