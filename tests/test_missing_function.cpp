// A cuDNN of the right version that lacks one function (cudnnCreate): the other functions work,
// the missing one returns CUDNN_STATUS_NOT_SUPPORTED, and the explanation names it.
#include <doctest/doctest.h>

#include <cushim/status.hpp>  // CUSHIM_IMPLEMENTATION: support/implementation_default.cpp
#include <string>

namespace {

std::string fixture(const char* folder, const char* file) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder + "/" + file;
}

void log_to(std::string_view line, void* context) { static_cast<std::string*>(context)->append(line).append("\n"); }

}  // namespace

TEST_CASE("a function the loaded cuDNN lacks returns NOT_SUPPORTED and is named") {
  static std::string log;
  cushim::options opts;
  opts.files[cushim::library::cudnn] = fixture("cudnn_no_create", CUSHIM_CUDNN_FILE);
  opts.files[cushim::library::cudart] = fixture("cudart_good", CUSHIM_CUDART_FILE);
  opts.log = log_to;
  opts.log_context = &log;
  REQUIRE(cushim::configure(opts));

  CHECK(cudnnGetVersion() == CUDNN_VERSION);
  cudnnHandle_t handle = nullptr;
  CHECK(cudnnCreate(&handle) == CUDNN_STATUS_NOT_SUPPORTED);
  CHECK(cudnnCreate(&handle) == CUDNN_STATUS_NOT_SUPPORTED);  // the slot now holds the fallback
  CHECK(handle == nullptr);
  CHECK(std::string(cudnnGetErrorString(CUDNN_STATUS_SUCCESS)) == "CUDNN_STATUS_SUCCESS (fake)");
  CHECK(cushim::available(cushim::library::cudnn));

  std::string text = cushim::explain();
  CHECK(text.find("  WARNING: cudnnCreate is not in " + opts.files[cushim::library::cudnn] + " (") !=
        std::string::npos);
  CHECK(text.find("); it returns CUDNN_STATUS_NOT_SUPPORTED") != std::string::npos);
  CHECK(cushim::explain_json().find("\"missing_functions\":[\"cudnnCreate\"]") != std::string::npos);
  CHECK(log.find("cushim: cuDNN: cudnnCreate is not exported by " + opts.files[cushim::library::cudnn]) !=
        std::string::npos);
  CHECK(log.find("cushim: cuDNN: using " + opts.files[cushim::library::cudnn]) != std::string::npos);
}

TEST_CASE("the fake CUDA runtime's functions are reached") {
  int count = -1, version = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 3);
  CHECK(cudaRuntimeGetVersion(&version) == cudaSuccess);
  CHECK(version == CUDART_VERSION);
  CHECK(cudaMalloc(nullptr, 1) == cudaErrorSharedObjectSymbolNotFound);  // the fake has no cudaMalloc
}
