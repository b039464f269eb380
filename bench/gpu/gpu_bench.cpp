// The GPU bench's measured program. One object file, linked twice: directly against cuDNN and the
// CUDA runtime (-lcudnn -lcudart) and with cushim's implementation file (bench/src/cushim_impl.cpp,
// -ldl -pthread), so both run byte-identical call sites; bench/gpu/interleave.cpp runs the two
// alternately and compares (BENCHMARKS.md, "On a GPU").
//
//   gpu_bench first START_NS  the ms from START_NS (CLOCK_MONOTONIC, taken by the harness just
//                             before it started this process) to the first successful cudnnCreate
//   gpu_bench calls           per call, the median of 9 rounds after a warm-up round: ns of
//                             cudaGetDevice (the runtime), cudnnSetStream (cuDNN), cudaStreamQuery
//                             (through the runtime to the driver), and us of cudnnConvolutionForward
//                             on a small convolution (N=1 C=8 32x32, K=8 3x3, cuDNN's first choice of
//                             algorithm), 500 launches and one synchronisation a round
//
// Prints "key=value" lines. Exit 0 measured; 3 no GPU ("no GPU: ..." says what failed: no driver,
// no device, no runtime or cuDNN); 4 a call failed after the GPU was found; 64 bad arguments.
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int exit_no_gpu = 3;
constexpr int exit_call_failed = 4;
constexpr int exit_usage = 64;
constexpr int rounds = 9;

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Why no GPU can be used: cuDNN's status, then the runtime's view of the devices.
int no_gpu_for_cudnn(cudnnStatus_t status) {
  int count = 0;
  cudaError_t counted = cudaGetDeviceCount(&count);
  std::printf("no GPU: cudnnCreate returned %s; cudaGetDeviceCount: %s, %d device(s)\n", cudnnGetErrorString(status),
              cudaGetErrorString(counted), counted == cudaSuccess ? count : 0);
  return exit_no_gpu;
}

int first_create(long long start_ns) {
  cudnnHandle_t handle = nullptr;
  cudnnStatus_t created = cudnnCreate(&handle);
  long long created_ns = now_ns();
  if (created != CUDNN_STATUS_SUCCESS) return no_gpu_for_cudnn(created);
  std::printf("first_create_ms=%.3f\n", double(created_ns - start_ns) / 1e6);
  cudnnDestroy(handle);
  return 0;
}

// Stores to volatile objects cannot be dropped or merged: every iteration makes one real call.
volatile int sink_status;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// `count` calls of `call`, `rounds` times after one warm-up round: the median ns per call.
template <class Call>
double ns_per_call(long count, Call call) {
  std::vector<double> per_round;
  for (int round = 0; round <= rounds; ++round) {
    long long start = now_ns();
    for (long i = 0; i < count; ++i) sink_status = call();
    double ns = double(now_ns() - start) / double(count);
    if (round > 0) per_round.push_back(ns);
  }
  return median(per_round);
}

bool failed(int status, const char* call) {
  if (status == 0) return false;
  std::fprintf(stderr, "gpu_bench: %s failed with status %d\n", call, status);
  return true;
}

// A small convolution, float NCHW, with cuDNN's first choice of algorithm and its workspace.
struct convolution {
  static constexpr int n = 1, c = 8, h = 32, w = 32, k = 8, r = 3, s = 3;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t filter = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algorithm = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t workspace_bytes = 0;
  void* x_data = nullptr;
  void* y_data = nullptr;
  void* w_data = nullptr;
  void* workspace = nullptr;

  bool describe() {
    return !(failed(cudnnCreateTensorDescriptor(&x), "cudnnCreateTensorDescriptor") ||
             failed(cudnnCreateTensorDescriptor(&y), "cudnnCreateTensorDescriptor") ||
             failed(cudnnCreateFilterDescriptor(&filter), "cudnnCreateFilterDescriptor") ||
             failed(cudnnCreateConvolutionDescriptor(&conv), "cudnnCreateConvolutionDescriptor") ||
             failed(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w),
                    "cudnnSetTensor4dDescriptor") ||
             failed(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, h, w),
                    "cudnnSetTensor4dDescriptor") ||
             failed(cudnnSetFilter4dDescriptor(filter, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, r, s),
                    "cudnnSetFilter4dDescriptor") ||
             failed(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                    "cudnnSetConvolution2dDescriptor"));
  }

  bool choose(cudnnHandle_t handle) {
    cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {};
    int returned = 0;
    if (failed(cudnnGetConvolutionForwardAlgorithm_v7(handle, x, filter, conv, y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                      &returned, results),
               "cudnnGetConvolutionForwardAlgorithm_v7"))
      return false;
    const cudnnConvolutionFwdAlgoPerf_t* usable =
        std::find_if(results, results + returned, [](const cudnnConvolutionFwdAlgoPerf_t& r) { return r.status == 0; });
    if (usable == results + returned) return !failed(-1, "cudnnGetConvolutionForwardAlgorithm_v7 (no algorithm)");
    algorithm = usable->algo;
    return !failed(cudnnGetConvolutionForwardWorkspaceSize(handle, x, filter, conv, y, algorithm, &workspace_bytes),
                   "cudnnGetConvolutionForwardWorkspaceSize");
  }

  bool allocate() {
    const size_t x_bytes = sizeof(float) * n * c * h * w, y_bytes = sizeof(float) * n * k * h * w,
                 w_bytes = sizeof(float) * k * c * r * s;
    return !(failed(cudaMalloc(&x_data, x_bytes), "cudaMalloc") || failed(cudaMalloc(&y_data, y_bytes), "cudaMalloc") ||
             failed(cudaMalloc(&w_data, w_bytes), "cudaMalloc") ||
             (workspace_bytes > 0 && failed(cudaMalloc(&workspace, workspace_bytes), "cudaMalloc")) ||
             failed(cudaMemset(x_data, 0, x_bytes), "cudaMemset") ||
             failed(cudaMemset(w_data, 0, w_bytes), "cudaMemset"));
  }

  int forward(cudnnHandle_t handle) const {
    const float alpha = 1.0f, beta = 0.0f;
    return cudnnConvolutionForward(handle, &alpha, x, x_data, filter, w_data, conv, algorithm, workspace,
                                   workspace_bytes, &beta, y, y_data);
  }

  ~convolution() {
    cudaFree(workspace);
    cudaFree(x_data);
    cudaFree(y_data);
    cudaFree(w_data);
    if (conv) cudnnDestroyConvolutionDescriptor(conv);
    if (filter) cudnnDestroyFilterDescriptor(filter);
    if (y) cudnnDestroyTensorDescriptor(y);
    if (x) cudnnDestroyTensorDescriptor(x);
  }
};

// us per cudnnConvolutionForward: `count` launches and one synchronisation per round.
double us_per_convolution(cudnnHandle_t handle, cudaStream_t stream, const convolution& work, long count) {
  std::vector<double> per_round;
  for (int round = 0; round <= rounds; ++round) {
    long long start = now_ns();
    int status = 0;
    for (long i = 0; i < count; ++i) status |= work.forward(handle);
    status |= cudaStreamSynchronize(stream);
    sink_status = status;
    double us = double(now_ns() - start) / double(count) / 1e3;
    if (round > 0) per_round.push_back(us);
  }
  return median(per_round);
}

// Prints key=value; false (and says so) when the measured calls did not succeed.
bool print(const char* key, double value) {
  std::printf("%s=%.3f\n", key, value);
  return !failed(sink_status, key);
}

int measure(cudnnHandle_t handle, cudaStream_t stream, const convolution& work) {
  int device = -1;
  bool ok = print("cudaGetDevice_ns", ns_per_call(200000, [&] { return int(cudaGetDevice(&device)); })) &&
            print("cudnnSetStream_ns", ns_per_call(200000, [&] { return int(cudnnSetStream(handle, stream)); })) &&
            print("cudaStreamQuery_ns", ns_per_call(20000, [&] { return int(cudaStreamQuery(stream)); })) &&
            print("cudnnConvolutionForward_us", us_per_convolution(handle, stream, work, 500));
  return ok ? 0 : exit_call_failed;
}

int calls() {
  int count = 0;
  cudaError_t counted = cudaGetDeviceCount(&count);
  if (counted != cudaSuccess || count == 0) {
    std::printf("no GPU: cudaGetDeviceCount: %s, %d device(s)\n", cudaGetErrorString(counted), count);
    return exit_no_gpu;
  }
  cudnnHandle_t handle = nullptr;
  cudnnStatus_t created = cudnnCreate(&handle);
  if (created != CUDNN_STATUS_SUCCESS) return no_gpu_for_cudnn(created);
  cudaStream_t stream = nullptr;
  int code = exit_call_failed;
  {
    convolution work;
    if (!failed(cudaStreamCreate(&stream), "cudaStreamCreate") &&
        !failed(cudnnSetStream(handle, stream), "cudnnSetStream") && work.describe() && work.choose(handle) &&
        work.allocate() && !failed(work.forward(handle), "cudnnConvolutionForward") &&
        !failed(cudaStreamSynchronize(stream), "cudaStreamSynchronize"))
      code = measure(handle, stream, work);
  }
  if (stream) cudaStreamDestroy(stream);
  cudnnDestroy(handle);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "first") == 0) return first_create(std::atoll(argv[2]));
  if (argc == 2 && std::strcmp(argv[1], "calls") == 0) return calls();
  std::fprintf(stderr, "usage: gpu_bench first START_NS | gpu_bench calls\n");
  return exit_usage;
}
