/* A stand-in libcublas.so for the 14-argument benchmark: the real cublasSgemm_v2 cannot be called
 * without a GPU and a handle. It exports what cushim's version check needs (cublasGetProperty, the
 * version of the headers) and a cublasSgemm_v2 that returns at once. */
#include <cublas_v2.h>

cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
  *value = type == MAJOR_VERSION ? CUBLAS_VER_MAJOR : type == MINOR_VERSION ? CUBLAS_VER_MINOR : CUBLAS_VER_PATCH;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                              int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                              const float* beta, float* C, int ldc) {
  (void)handle, (void)transa, (void)transb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)B;
  (void)ldb, (void)beta, (void)C, (void)ldc;
  return CUBLAS_STATUS_SUCCESS;
}
