// toolkit_math: an FFT with cuFFT, a cuRAND draw and a dense solve with cuSOLVER on GPU 0, each
// reached through cushim (no -lcufft -lcurand -lcusolver) and checked against the CPU: the
// transform against a direct DFT, the device's Philox draws against the same generator run on
// the host, and the solution of A x = b against the right-hand side it must give back.
// Exit codes: gpu_example.hpp (docs/examples.md, "Examples").
// Each library's main header, as a program linked with -lcufft -lcurand -lcusolver has: cushim
// includes the others that come with them (docs/supported-headers.md, "Headers cushim includes").
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu_example.hpp"

namespace {

const char* const program = "toolkit_math";

void check_status(int status, const char* call) {
  if (status == 0) return;
  throw example::failure(example::exit_call_failed,
                         std::string(call) + " failed with status " + std::to_string(status));
}

// The runtime, the three libraries and a GPU, else exit 3.
void require_gpu_and_libraries() {
  for (cushim::library lib :
       {cushim::library::cudart, cushim::library::cufft, cushim::library::curand, cushim::library::cusolver}) {
    if (cushim::available(lib)) continue;
    throw example::failure(example::exit_no_gpu, std::string(cushim::to_string(lib)) + " is unavailable (" +
                                                     cushim::to_string(cushim::error_of(lib)) + ")");
  }
  int count = 0;
  example::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount", example::exit_no_gpu);
  if (count == 0) throw example::failure(example::exit_no_gpu, "cudaGetDeviceCount found no GPU");
}

// A 256-point complex forward transform (unnormalised, as cuFFT computes it) against the DFT sum.
double fft_error() {
  constexpr int n = 256;
  example::value_sequence values(7);
  std::vector<float> signal = values.take(2 * n, 1.0f);  // interleaved re, im
  example::device_array<float> data(signal.size());
  data.upload(signal);
  cufftHandle plan = 0;
  check_status(cufftPlan1d(&plan, n, CUFFT_C2C, 1), "cufftPlan1d");
  cufftResult run = cufftExecC2C(plan, reinterpret_cast<cufftComplex*>(data.get()),
                                 reinterpret_cast<cufftComplex*>(data.get()), CUFFT_FORWARD);
  cufftDestroy(plan);
  check_status(run, "cufftExecC2C");
  std::vector<float> gpu = data.download(), cpu(signal.size());
  const double pi = 3.14159265358979323846;
  for (int k = 0; k < n; ++k) {
    double re = 0, im = 0;
    for (int t = 0; t < n; ++t) {
      double angle = -2 * pi * double(k) * t / n;
      re += signal[2 * t] * std::cos(angle) - signal[2 * t + 1] * std::sin(angle);
      im += signal[2 * t] * std::sin(angle) + signal[2 * t + 1] * std::cos(angle);
    }
    cpu[2 * k] = float(re / n);  // compared at the scale of one input value
    cpu[2 * k + 1] = float(im / n);
  }
  for (float& v : gpu) v /= n;
  return example::max_abs_difference(gpu, cpu);
}

// 4096 uniform draws of Philox4_32_10 with one seed, on the device and on the host.
double random_error() {
  constexpr std::size_t n = 4096;
  auto draw = [](bool on_host, float* out) {
    curandGenerator_t generator = nullptr;
    check_status(on_host ? curandCreateGeneratorHost(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10)
                         : curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                 on_host ? "curandCreateGeneratorHost" : "curandCreateGenerator");
    curandStatus_t seeded = curandSetPseudoRandomGeneratorSeed(generator, 2026ULL);
    curandStatus_t drawn = seeded == CURAND_STATUS_SUCCESS ? curandGenerateUniform(generator, out, n) : seeded;
    curandDestroyGenerator(generator);
    check_status(drawn, "curandGenerateUniform");
  };
  example::device_array<float> device(n);
  draw(false, device.get());
  std::vector<float> host(n);
  draw(true, host.data());
  return example::max_abs_difference(device.download(), host);
}

// A x = b for a diagonally dominant 8 x 8 A (column-major) by LU with partial pivoting (getrf,
// getrs); the error is that of A x against b, computed on the CPU.
double solve_error() {
  constexpr int n = 8;
  example::value_sequence values(11);
  std::vector<float> a = values.take(n * n, 1.0f), b = values.take(n, 1.0f);
  for (int i = 0; i < n; ++i) a[i * n + i] += float(n);
  cusolverDnHandle_t solver = nullptr;
  check_status(cusolverDnCreate(&solver), "cusolverDnCreate");
  example::device_array<float> da(a.size()), db(b.size());
  example::device_array<int> pivots(n), info(1);
  da.upload(a);
  db.upload(b);
  int work_size = 0;
  cusolverStatus_t status = cusolverDnSgetrf_bufferSize(solver, n, n, da.get(), n, &work_size);
  if (status == CUSOLVER_STATUS_SUCCESS) {
    example::device_array<float> work(std::size_t(work_size > 0 ? work_size : 1));
    status = cusolverDnSgetrf(solver, n, n, da.get(), n, work.get(), pivots.get(), info.get());
    if (status == CUSOLVER_STATUS_SUCCESS) {
      status = cusolverDnSgetrs(solver, CUBLAS_OP_N, n, 1, da.get(), n, pivots.get(), db.get(), n, info.get());
    }
  }
  cusolverDnDestroy(solver);
  check_status(status, "cusolverDnSgetrf / cusolverDnSgetrs");
  if (info.download()[0] != 0) throw example::failure(example::exit_call_failed, "getrf: the matrix is singular");
  std::vector<float> x = db.download(), ax(n, 0.0f);
  for (int col = 0; col < n; ++col) {
    for (int row = 0; row < n; ++row) ax[row] += a[col * n + row] * x[col];
  }
  return example::max_abs_difference(ax, b);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    bool help = argc == 2 && std::string(argv[1]) == "--help";
    std::fprintf(help ? stdout : stderr,
                 "usage: %s\n  An FFT, a cuRAND draw and a dense solve on GPU 0 through cushim, checked on the CPU.\n"
                 "exit: 0 all match within %.0e, 1 one differs, 3 no usable GPU, cuFFT, cuRAND or cuSOLVER, 4 a call "
                 "failed, 64 bad command line\n",
                 program, example::tolerance);
    return help ? 0 : example::exit_usage;
  }
  try {
    require_gpu_and_libraries();
    double fft = fft_error(), random = random_error(), solve = solve_error();
    std::printf("%s: cuFFT %.3g, cuRAND %.3g, cuSOLVER %.3g\n", program, fft, random, solve);
    return example::report_result(program, std::fmax(fft, std::fmax(random, solve)));
  } catch (const example::failure& f) {
    example::print_failure(program, f, "GPU, cuFFT, cuRAND or cuSOLVER");
    return f.exit_code();
  }
}
