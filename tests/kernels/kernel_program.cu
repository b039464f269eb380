// A program with its own kernel, __device__ and __managed__ variables, built with nvcc and
// cushim_use_for_cuda (no CUDA runtime linked): nvcc's start-up code registers them before main
// through cushim's stubs, and the link puts this file first, so that runs before the statics of
// cushim's implementation file. Prints one key=value line per result; exits 0 at its end. Built
// with separable compilation and CUSHIM_TEST_RDC, it also launches a kernel that launches one.
//   kernel_program [--configure] [--launch-first] [--explain]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>

#include <cushim/status.hpp>

__device__ int device_counter;
__managed__ int managed_value;

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
  if (i == 0) atomicAdd(&device_counter, n);
}

#ifdef CUSHIM_TEST_RDC
// Separable compilation (kernel_program_rdc): a device function of another file, and a kernel that
// launches a kernel (dynamic parallelism: the device runtime, libcudadevrt).
__device__ int twice(int v);  // kernel_rdc.cu
__global__ void launch_add_one(int* data, int n) {
  add_one<<<1, n>>>(data, n);
  data[0] = twice(data[0]);
}
#endif

namespace {

void report(const char* key, cudaError_t e) { std::printf("%s=%d\n", key, int(e)); }

bool has_flag(int argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("reached_main=1\n");
  std::fflush(stdout);
  // configure() is refused once a library was loaded: here, by the registration before main.
  if (has_flag(argc, argv, "--configure")) std::printf("configure_accepted=%d\n", int(cushim::configure({})));
  int* data = nullptr;
  if (has_flag(argc, argv, "--launch-first")) add_one<<<1, 4>>>(data, 4);
  int devices = -1;
  report("device_count_error", cudaGetDeviceCount(&devices));
  std::printf("devices=%d\n", devices);
  report("malloc", cudaMalloc(reinterpret_cast<void**>(&data), 4 * sizeof(int)));
  int host[4] = {1, 2, 3, 4};
  report("memcpy_to_device", cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice));
  add_one<<<1, 4>>>(data, 4);
  report("chevron_launch", cudaGetLastError());
  int n = 4;
  void* args[] = {&data, &n};
#ifdef CUSHIM_TEST_RDC
  launch_add_one<<<1, 1>>>(data, 4);
  report("parent_launch", cudaGetLastError());
#endif
  report("launch_kernel",
         cudaLaunchKernel(reinterpret_cast<const void*>(&add_one), dim3(1), dim3(4), args, 0, nullptr));
  report("memcpy_to_host", cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  int counter = 0;
  report("copy_from_symbol", cudaMemcpyFromSymbol(&counter, device_counter, sizeof counter));
  if (devices > 0) {
    managed_value = 41;  // only where the runtime backs managed memory: else its address is not set
    report("synchronize", cudaDeviceSynchronize());
    std::printf("values=%d,%d,%d,%d managed=%d counter=%d\n", host[0], host[1], host[2], host[3], managed_value,
                counter);
  }
  cudaFree(data);
  if (has_flag(argc, argv, "--explain")) std::printf("%s", cushim::explain().c_str());
  std::printf("reached_end=1\n");
  return 0;
}
