// Baseline (c): the lazy-binding stub many projects write by hand. Each exported function keeps
// its pointer in a function-local static (a thread-safe guarded initialisation, checked on every
// call) and tests it for null before forwarding. Written for this benchmark only; the four
// functions the per-call programs use.
//
// BENCH_CUDNN_FILE / BENCH_CUDART_FILE (environment) override the libraries' paths.
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <dlfcn.h>

#include <cstdlib>

#ifndef BENCH_CUDA_LIB_DIR
#define BENCH_CUDA_LIB_DIR "/usr/local/cuda/lib"
#endif

namespace {

void* open_library(const char* variable, const char* fallback) {
  const char* path = std::getenv(variable);
  return ::dlopen(path && *path ? path : fallback, RTLD_NOW | RTLD_LOCAL);
}

void* cudnn_library() {
  static void* handle = open_library("BENCH_CUDNN_FILE", BENCH_CUDA_LIB_DIR "/libcudnn.so.9");
  return handle;
}

void* cudart_library() {
  static void* handle = open_library("BENCH_CUDART_FILE", BENCH_CUDA_LIB_DIR "/libcudart.so.13");
  return handle;
}

// Never dlsym(nullptr, ...): that is RTLD_DEFAULT and could find these very stubs.
template <class F>
F find(void* library, const char* name) {
  return library ? reinterpret_cast<F>(::dlsym(library, name)) : nullptr;
}

}  // namespace

extern "C" size_t CUDNNWINAPI cudnnGetVersion(void) {
  static auto fn = find<decltype(&cudnnGetVersion)>(cudnn_library(), "cudnnGetVersion");
  if (!fn) return 0;
  return fn();
}

extern "C" const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  static auto fn = find<decltype(&cudaGetErrorString)>(cudart_library(), "cudaGetErrorString");
  if (!fn) return "unavailable";
  return fn(error);
}

extern "C" cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  static auto fn = find<decltype(&cudaGetDevice)>(cudart_library(), "cudaGetDevice");
  if (!fn) return cudaErrorSharedObjectInitFailed;
  return fn(device);
}

extern "C" cudnnStatus_t CUDNNWINAPI cudnnConvolutionForward(
    cudnnHandle_t handle, const void* alpha, const cudnnTensorDescriptor_t xDesc, const void* x,
    const cudnnFilterDescriptor_t wDesc, const void* w, const cudnnConvolutionDescriptor_t convDesc,
    cudnnConvolutionFwdAlgo_t algo, void* workSpace, size_t workSpaceSizeInBytes, const void* beta,
    const cudnnTensorDescriptor_t yDesc, void* y) {
  static auto fn = find<decltype(&cudnnConvolutionForward)>(cudnn_library(), "cudnnConvolutionForward");
  if (!fn) return CUDNN_STATUS_NOT_INITIALIZED;
  return fn(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, workSpace, workSpaceSizeInBytes, beta, yDesc, y);
}
