/* A stand-in libcudnn.so.9 for the stack-argument benchmark: the real cudnnConvolutionForward
 * cannot be called without a GPU and valid descriptors. It exports what cushim's version check
 * needs and a cudnnConvolutionForward that returns at once. */
#include <cudnn.h>

size_t cudnnGetVersion(void) { return CUDNN_VERSION; }

cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t handle, const void* alpha, const cudnnTensorDescriptor_t xDesc,
                                      const void* x, const cudnnFilterDescriptor_t wDesc, const void* w,
                                      const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
                                      void* workSpace, size_t workSpaceSizeInBytes, const void* beta,
                                      const cudnnTensorDescriptor_t yDesc, void* y) {
  (void)handle, (void)alpha, (void)xDesc, (void)x, (void)wDesc, (void)w, (void)convDesc, (void)algo;
  (void)workSpace, (void)workSpaceSizeInBytes, (void)beta, (void)yDesc, (void)y;
  return CUDNN_STATUS_SUCCESS;
}
