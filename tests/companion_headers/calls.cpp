// One call of each library's functions whose headers the implementation file did not include
// (implementation.cpp), printed as "name status". Linked once with implementation.cpp and once
// against the real libraries; run.sh compares the two outputs.
#include <cublasLt.h>
#include <cublasXt.h>
#include <cuda_profiler_api.h>
#include <cufftXt.h>
#include <cusolverRf.h>
#include <cusolverSp.h>
#include <cusolverSp_LOWLEVEL_PREVIEW.h>

#include <cstdio>

// cuSOLVER 13 deprecates its sparse and refactorization APIs for cuDSS; libcusolver still exports them.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

void print(const char* name, int status) { std::printf("%s %d\n", name, status); }

}  // namespace

int main() {
  print("cudaProfilerStart", cudaProfilerStart());
  print("cudaProfilerStop", cudaProfilerStop());

  cublasXtHandle_t xt = nullptr;
  cublasStatus_t xt_created = cublasXtCreate(&xt);
  print("cublasXtCreate", xt_created);
  if (xt_created == CUBLAS_STATUS_SUCCESS) print("cublasXtDestroy", cublasXtDestroy(xt));
  cublasLtHandle_t lt = nullptr;
  cublasStatus_t lt_created = cublasLtCreate(&lt);
  print("cublasLtCreate", lt_created);
  if (lt_created == CUBLAS_STATUS_SUCCESS) print("cublasLtDestroy", cublasLtDestroy(lt));

  cufftHandle plan = 0;
  cudaLibXtDesc* descriptor = nullptr;
  print("cufftXtMalloc", cufftXtMalloc(plan, &descriptor, CUFFT_XT_FORMAT_INPLACE));

  cusolverSpHandle_t sp = nullptr;
  cusolverStatus_t sp_created = cusolverSpCreate(&sp);
  print("cusolverSpCreate", sp_created);
  if (sp_created == CUSOLVER_STATUS_SUCCESS) print("cusolverSpDestroy", cusolverSpDestroy(sp));
  cusolverRfHandle_t rf = nullptr;
  cusolverStatus_t rf_created = cusolverRfCreate(&rf);
  print("cusolverRfCreate", rf_created);
  if (rf_created == CUSOLVER_STATUS_SUCCESS) print("cusolverRfDestroy", cusolverRfDestroy(rf));
  csrluInfoHost_t lu = nullptr;
  cusolverStatus_t lu_created = cusolverSpCreateCsrluInfoHost(&lu);
  print("cusolverSpCreateCsrluInfoHost", lu_created);
  if (lu_created == CUSOLVER_STATUS_SUCCESS)
    print("cusolverSpDestroyCsrluInfoHost", cusolverSpDestroyCsrluInfoHost(lu));
  return 0;
}
