// A program that uses the toolkit's libraries the way NVIDIA's CUDA samples do, with kernels of
// its own, built with nvcc -cudart none and no NVIDIA import library (cushim_use_for_cuda and the
// opt-in macros): simpleCUFFT (a plan, a forward transform, a pointwise kernel, the inverse),
// conjugateGradient (cuSPARSE's CSR SpMV and cuBLAS's dot and axpy), cuSolverDn_LinearSolver (an
// LU factorisation's workspace, getrf, getrs) and a cuRAND draw scaled by a kernel. Each step
// prints key=value (its status, and the library's cushim status); without a GPU the program goes
// on past the first CUDA error, as the samples' error checks would report it, and exits 0 at its
// end.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>

#include <cstdio>

#include <cushim/status.hpp>

__global__ void complex_pointwise_scale(cufftComplex* a, const cufftComplex* b, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cufftComplex c = {a[i].x * b[i].x - a[i].y * b[i].y, a[i].x * b[i].y + a[i].y * b[i].x};
    a[i].x = c.x * scale;
    a[i].y = c.y * scale;
  }
}

__global__ void scale_draws(float* data, int n, float low, float high) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = low + data[i] * (high - low);
}

namespace {

void report(const char* key, int status) { std::printf("%s=%d\n", key, status); }

void library_status(const char* key, cushim::library lib) {
  std::printf("%s.code=%s\n", key, cushim::to_string(cushim::status_of(lib).code));
}

// simpleCUFFT: a 1D complex transform, a pointwise multiplication in a kernel, the inverse.
void fft_sample() {
  const int n = 64;
  cufftComplex* signal = nullptr;
  report("fft.malloc", cudaMalloc(reinterpret_cast<void**>(&signal), sizeof(cufftComplex) * n));
  cufftHandle plan = 0;
  cufftResult planned = cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  report("fft.cufftPlan1d", planned);
  library_status("fft", cushim::library::cufft);
  if (planned != CUFFT_SUCCESS) return;
  report("fft.forward", cufftExecC2C(plan, signal, signal, CUFFT_FORWARD));
  complex_pointwise_scale<<<1, n>>>(signal, signal, n, 1.0f / n);
  report("fft.kernel", cudaGetLastError());
  report("fft.inverse", cufftExecC2C(plan, signal, signal, CUFFT_INVERSE));
  cufftDestroy(plan);
  cudaFree(signal);
}

// conjugateGradient: y = A x with cuSPARSE's generic SpMV on a CSR matrix, r = dot(y, y) with cuBLAS.
void sparse_sample() {
  cusparseHandle_t sparse = nullptr;
  cusparseStatus_t sparse_created = cusparseCreate(&sparse);
  report("sparse.cusparseCreate", sparse_created);
  library_status("sparse", cushim::library::cusparse);
  cublasHandle_t blas = nullptr;
  cublasStatus_t blas_created = cublasCreate(&blas);
  report("sparse.cublasCreate", blas_created);
  library_status("blas", cushim::library::cublas);
  if (sparse_created == CUSPARSE_STATUS_SUCCESS && blas_created == CUBLAS_STATUS_SUCCESS) {
    int* rows = nullptr;
    int* columns = nullptr;
    float* values = nullptr;
    float* x = nullptr;
    float* y = nullptr;
    cudaMalloc(reinterpret_cast<void**>(&rows), 3 * sizeof(int));
    cudaMalloc(reinterpret_cast<void**>(&columns), 2 * sizeof(int));
    cudaMalloc(reinterpret_cast<void**>(&values), 2 * sizeof(float));
    cudaMalloc(reinterpret_cast<void**>(&x), 2 * sizeof(float));
    cudaMalloc(reinterpret_cast<void**>(&y), 2 * sizeof(float));
    cusparseSpMatDescr_t matrix = nullptr;
    cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
    report("sparse.cusparseCreateCsr", cusparseCreateCsr(&matrix, 2, 2, 2, rows, columns, values, CUSPARSE_INDEX_32I,
                                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    cusparseCreateDnVec(&vx, 2, x, CUDA_R_32F);
    cusparseCreateDnVec(&vy, 2, y, CUDA_R_32F);
    float one = 1.0f, zero = 0.0f, dot = 0.0f;
    std::size_t size = 0;
    report("sparse.cusparseSpMV_bufferSize",
           cusparseSpMV_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix, vx, &zero, vy, CUDA_R_32F,
                                   CUSPARSE_SPMV_ALG_DEFAULT, &size));
    void* buffer = nullptr;
    cudaMalloc(&buffer, size);
    report("sparse.cusparseSpMV", cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix, vx, &zero, vy,
                                               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    report("sparse.cublasSdot", cublasSdot(blas, 2, y, 1, y, 1, &dot));
    cusparseDestroySpMat(matrix);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
  }
  if (blas_created == CUBLAS_STATUS_SUCCESS) cublasDestroy(blas);
  if (sparse_created == CUSPARSE_STATUS_SUCCESS) cusparseDestroy(sparse);
}

// cuSolverDn_LinearSolver: A x = b through LU (getrf, getrs).
void dense_sample() {
  cusolverDnHandle_t solver = nullptr;
  cusolverStatus_t created = cusolverDnCreate(&solver);
  report("dense.cusolverDnCreate", created);
  library_status("dense", cushim::library::cusolver);
  if (created != CUSOLVER_STATUS_SUCCESS) return;
  float* a = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&a), 4 * sizeof(float));
  int work = 0;
  report("dense.cusolverDnSgetrf_bufferSize", cusolverDnSgetrf_bufferSize(solver, 2, 2, a, 2, &work));
  cusolverDnDestroy(solver);
}

// A cuRAND draw on the device, scaled into [low, high) by a kernel.
void random_sample() {
  curandGenerator_t generator = nullptr;
  curandStatus_t created = curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT);
  report("random.curandCreateGenerator", created);
  library_status("random", cushim::library::curand);
  if (created != CURAND_STATUS_SUCCESS) return;
  float* draws = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&draws), 256 * sizeof(float));
  report("random.curandGenerateUniform", curandGenerateUniform(generator, draws, 256));
  scale_draws<<<1, 256>>>(draws, 256, -1.0f, 1.0f);
  report("random.kernel", cudaGetLastError());
  curandDestroyGenerator(generator);
}

}  // namespace

int main() {
  std::printf("reached_main=1\n");
  int devices = -1;
  report("first_cuda_error", cudaGetDeviceCount(&devices));
  fft_sample();
  sparse_sample();
  dense_sample();
  random_sample();
  std::printf("reached_end=1\n");
  return 0;
}
