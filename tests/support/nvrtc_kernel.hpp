// One small kernel compiled to PTX with NVRTC: by test_real_opt_in through cushim, and by
// direct_calls linked with -lnvrtc, so the two outputs can be compared byte for byte.
#pragma once

#include <nvrtc.h>

#include <string>

namespace test_support {

inline const char* const saxpy_source = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

struct ptx_result {
  nvrtcResult create = NVRTC_SUCCESS, compile = NVRTC_SUCCESS, get = NVRTC_SUCCESS;
  std::string ptx;
  std::string log;
};

// The kernel compiled for compute_75 (every NVRTC of CUDA 11 to 13 targets it).
inline ptx_result compile_saxpy() {
  ptx_result r;
  nvrtcProgram program = nullptr;
  r.create = nvrtcCreateProgram(&program, saxpy_source, "saxpy.cu", 0, nullptr, nullptr);
  if (r.create != NVRTC_SUCCESS) return r;
  const char* options[] = {"--gpu-architecture=compute_75"};
  r.compile = nvrtcCompileProgram(program, 1, options);
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    r.log.resize(log_size);
    nvrtcGetProgramLog(program, &r.log[0]);
  }
  std::size_t ptx_size = 0;
  if (r.compile == NVRTC_SUCCESS && (r.get = nvrtcGetPTXSize(program, &ptx_size)) == NVRTC_SUCCESS) {
    r.ptx.resize(ptx_size);
    r.get = nvrtcGetPTX(program, &r.ptx[0]);
  }
  nvrtcDestroyProgram(&program);
  return r;
}

}  // namespace test_support
