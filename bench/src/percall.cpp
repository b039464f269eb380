// The per-call program: N calls of one cuDNN / CUDA runtime function in an opaque loop.
//
// The same object file is linked four ways by run.sh (directly against the libraries, through
// cushim, through the guarded-static-local baseline, through cushim built with the proposed
// fix), so the call sites are byte-identical and only what sits behind the symbol differs.
// It includes only NVIDIA's headers: <cushim/cushim.hpp> adds nothing to a cudnn*/cuda* call
// site (the stubs have the very names and prototypes of the real functions).
//
//   percall version N   N x cudnnGetVersion()
//   percall errstr  N   N x cudaGetErrorString(cudaSuccess)
//   percall conv    N   N x cudnnConvolutionForward(13 arguments, 7 on the stack); fixture only
//   percall getdevice N N x cudaGetDevice(&device): the runtime call bench/gpu measures on a GPU
//                       (without one, every call returns the runtime's own refusal)
//
// Exit 0 when every call reached a real function, 3 when a call returned a fallback value.
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// Stores to volatile objects cannot be dropped or merged, and an external call cannot be hoisted
// out of a loop: every iteration makes one real call.
volatile size_t sink_size;
volatile const char* sink_text;
volatile int sink_status;

// The arguments are read from volatile objects, so the compiler cannot specialise the calls.
void* volatile opaque_pointer = nullptr;
volatile float alpha = 1.0f, beta = 0.0f;

__attribute__((noinline)) void loop_version(long n) {
  for (long i = 0; i < n; ++i) sink_size = cudnnGetVersion();
}

__attribute__((noinline)) void loop_errstr(long n) {
  for (long i = 0; i < n; ++i) sink_text = cudaGetErrorString(cudaSuccess);
}

__attribute__((noinline)) void loop_getdevice(long n) {
  int device = 0;
  for (long i = 0; i < n; ++i) sink_status = cudaGetDevice(&device);
}

__attribute__((noinline)) void loop_conv(long n) {
  auto handle = static_cast<cudnnHandle_t>(opaque_pointer);
  auto tensor = static_cast<cudnnTensorDescriptor_t>(opaque_pointer);
  auto filter = static_cast<cudnnFilterDescriptor_t>(opaque_pointer);
  auto conv = static_cast<cudnnConvolutionDescriptor_t>(opaque_pointer);
  void* data = opaque_pointer;
  float a = alpha, b = beta;
  for (long i = 0; i < n; ++i) {
    sink_status = cudnnConvolutionForward(handle, &a, tensor, data, filter, data, conv,
                                          CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, data, 0, &b, tensor, data);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: percall version|errstr|conv|getdevice N\n");
    return 64;
  }
  long n = std::atol(argv[2]);
  if (std::strcmp(argv[1], "version") == 0) {
    loop_version(n);
    return sink_size != 0 ? 0 : 3;
  }
  if (std::strcmp(argv[1], "errstr") == 0) {
    loop_errstr(n);
    const char* text = const_cast<const char*>(sink_text);
    return text && std::strncmp(text, "cushim", 6) != 0 ? 0 : 3;
  }
  if (std::strcmp(argv[1], "getdevice") == 0) {
    loop_getdevice(n);
    return sink_status != cudaErrorSharedObjectInitFailed ? 0 : 3;  // cushim's fallback: no runtime reached
  }
  if (std::strcmp(argv[1], "conv") == 0) {
    loop_conv(n);
    return sink_status == CUDNN_STATUS_SUCCESS ? 0 : 3;
  }
  std::fprintf(stderr, "percall: unknown mode '%s'\n", argv[1]);
  return 64;
}
