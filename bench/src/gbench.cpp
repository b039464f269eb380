// Wall time per call with Google Benchmark. Linked the same four ways as percall.cpp.
// BM_cudnnConvolutionForward needs the fixture libcudnn.so.9 (run.sh selects it).
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace {

void* volatile opaque_pointer = nullptr;

void BM_cudnnGetVersion(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cudnnGetVersion());
  if (cudnnGetVersion() == 0) state.SkipWithError("cudnnGetVersion returned 0 (fallback)");
}
BENCHMARK(BM_cudnnGetVersion);

void BM_cudaGetErrorString(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cudaGetErrorString(cudaSuccess));
}
BENCHMARK(BM_cudaGetErrorString);

void BM_cudnnConvolutionForward(benchmark::State& state) {
  auto handle = static_cast<cudnnHandle_t>(opaque_pointer);
  auto tensor = static_cast<cudnnTensorDescriptor_t>(opaque_pointer);
  auto filter = static_cast<cudnnFilterDescriptor_t>(opaque_pointer);
  auto conv = static_cast<cudnnConvolutionDescriptor_t>(opaque_pointer);
  void* data = opaque_pointer;
  float a = 1.0f, b = 0.0f;
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  for (auto _ : state) {
    status = cudnnConvolutionForward(handle, &a, tensor, data, filter, data, conv, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                                     data, 0, &b, tensor, data);
    benchmark::DoNotOptimize(status);
  }
  if (status != CUDNN_STATUS_SUCCESS) state.SkipWithError("cudnnConvolutionForward did not reach the fixture");
}
BENCHMARK(BM_cudnnConvolutionForward);

}  // namespace

BENCHMARK_MAIN();
