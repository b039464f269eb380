/* Stand-ins for libcufft.so and libcusparse.so for the per-call benchmark (percall_blas c2c,
 * spmv): the real functions cannot run without a GPU and a plan or handle. Built once with
 * FIXTURE_CUFFT and once with FIXTURE_CUSPARSE: each exports what cushim's version check needs
 * (the headers' version) and one function that returns at once. */
#ifdef FIXTURE_CUFFT
#include <cufft.h>

cufftResult cufftGetVersion(int* version) {
  *version = CUFFT_VERSION;
  return CUFFT_SUCCESS;
}

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex* idata, cufftComplex* odata, int direction) {
  (void)plan, (void)idata, (void)odata, (void)direction;
  return CUFFT_SUCCESS;
}
#endif

#ifdef FIXTURE_CUSPARSE
#include <cusparse.h>

cusparseStatus_t cusparseGetProperty(libraryPropertyType type, int* value) {
  *value = type == MAJOR_VERSION ? CUSPARSE_VER_MAJOR : type == MINOR_VERSION ? CUSPARSE_VER_MINOR : CUSPARSE_VER_PATCH;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
                              cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void* beta,
                              cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                              void* externalBuffer) {
  (void)handle, (void)opA, (void)alpha, (void)matA, (void)vecX, (void)beta, (void)vecY, (void)computeType, (void)alg;
  (void)externalBuffer;
  return CUSPARSE_STATUS_SUCCESS;
}
#endif
