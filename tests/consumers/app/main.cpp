// A consumer of an installed or embedded cushim: it calls cuDNN and the CUDA runtime as if it
// linked them, and is built without -lcudnn -lcudart. Exit 0 when the versions the real libraries
// report match the headers it was compiled with.
#include <cushim/status.hpp>

#include <cstdio>

int main() {
  const size_t cudnn = cudnnGetVersion();
  int cudart = 0;
  const cudaError_t rc = cudaRuntimeGetVersion(&cudart);
  std::printf("cudnnGetVersion() = %zu, CUDNN_VERSION = %d\n", cudnn, CUDNN_VERSION);
  std::printf("cudaRuntimeGetVersion() = %d (%s), CUDART_VERSION = %d\n", cudart, cudaGetErrorName(rc), CUDART_VERSION);
  const bool ok =
      cudnn == static_cast<size_t>(CUDNN_VERSION) && rc == cudaSuccess && cudart / 1000 == CUDART_VERSION / 1000;
  if (!ok) std::fputs(cushim::explain().c_str(), stderr);
  std::printf("cushim-consumer: %s\n", ok ? "versions match" : "MISMATCH");
  return ok ? 0 : 1;
}
