// kernel_saxpy: a program with its own kernel, built with nvcc and cushim (no CUDA runtime
// linked): y = a * x + y on GPU 0 with a __global__ function and a __constant__ a, compared with
// the CPU. nvcc registers the kernel and the constant before main through cushim's stubs.
// Exit codes as the other examples (docs/examples.md, "Examples").
#include <cushim/cushim.hpp>

#include <vector>

#include "gpu_example.hpp"

namespace {

__constant__ float scale;

__global__ void saxpy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale * x[i] + y[i];
}

constexpr int count = 1 << 16;
constexpr float a = 0.75f;

int compare_saxpy(cudnnHandle_t) {
  example::value_sequence values(2025);
  const std::vector<float> x = values.take(count, 1.0f), y = values.take(count, 1.0f);
  example::device_array<float> device_x(count), device_y(count);
  device_x.upload(x);
  device_y.upload(y);
  example::check_cuda(cudaMemcpyToSymbol(scale, &a, sizeof a), "cudaMemcpyToSymbol (scale)");
  saxpy<<<(count + 255) / 256, 256>>>(device_x.get(), device_y.get(), count);
  example::check_cuda(cudaGetLastError(), "saxpy<<<...>>>");
  example::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after saxpy)");
  std::vector<float> expected(count);
  for (int i = 0; i < count; ++i) expected[i] = a * x[i] + y[i];
  return example::report_result("kernel_saxpy", example::max_abs_difference(device_y.download(), expected));
}

}  // namespace

int main(int argc, char** argv) { return example::run("kernel_saxpy", argc, argv, compare_saxpy); }
