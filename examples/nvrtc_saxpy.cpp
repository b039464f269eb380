// nvrtc_saxpy: a kernel compiled at run time with NVRTC and launched with the CUDA driver API, both
// reached through cushim (no -lnvrtc -lcuda), its result checked against the CPU. Compiling needs
// no GPU and always runs; without a usable GPU the program stops after it (exit 3), saying why.
// Exit codes: gpu_example.hpp (docs/examples.md, "Examples").
#include <cuda.h>
#include <nvrtc.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_example.hpp"

namespace {

const char* const program = "nvrtc_saxpy";

const char* const source = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

constexpr int count = 1 << 16;
constexpr float a = 2.5f;

void check_nvrtc(nvrtcResult result, const char* call, int exit_code = example::exit_call_failed) {
  if (result == NVRTC_SUCCESS) return;
  throw example::failure(exit_code, std::string(call) + " failed: " + nvrtcGetErrorString(result));
}

void check_cu(CUresult result, const char* call, int exit_code = example::exit_call_failed) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  throw example::failure(exit_code, std::string(call) + " failed: " + (name ? name : "unknown CUresult") + " (" +
                                        std::to_string(int(result)) + ")");
}

// PTX for compute_75, which every GPU since Turing runs, JIT-compiled by the driver for the one it has.
std::string compile_to_ptx() {
  if (!cushim::available(cushim::library::nvrtc)) {
    throw example::failure(example::exit_no_gpu, std::string("NVRTC is unavailable (") +
                                                     cushim::to_string(cushim::error_of(cushim::library::nvrtc)) + ")");
  }
  nvrtcProgram compiler = nullptr;
  check_nvrtc(nvrtcCreateProgram(&compiler, source, "saxpy.cu", 0, nullptr, nullptr), "nvrtcCreateProgram");
  const char* options[] = {"--gpu-architecture=compute_75"};
  nvrtcResult compiled = nvrtcCompileProgram(compiler, 1, options);
  std::size_t size = 0;
  std::string text;
  if (compiled == NVRTC_SUCCESS && nvrtcGetPTXSize(compiler, &size) == NVRTC_SUCCESS) {
    text.resize(size);
    compiled = nvrtcGetPTX(compiler, &text[0]);
  } else if (nvrtcGetProgramLogSize(compiler, &size) == NVRTC_SUCCESS && size > 1) {
    text.resize(size);
    nvrtcGetProgramLog(compiler, &text[0]);
  }
  nvrtcDestroyProgram(&compiler);
  if (compiled != NVRTC_SUCCESS) {
    throw example::failure(example::exit_call_failed,
                           std::string("nvrtcCompileProgram failed: ") + nvrtcGetErrorString(compiled) + "\n" + text);
  }
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  std::printf("%s: NVRTC %d.%d compiled saxpy to %zu bytes of PTX\n", program, major, minor, text.size());
  return text;
}

// GPU 0's primary context, made current; released on scope exit.
class primary_context {
 public:
  primary_context() {
    check_cu(cuInit(0), "cuInit", example::exit_no_gpu);
    int devices = 0;
    check_cu(cuDeviceGetCount(&devices), "cuDeviceGetCount", example::exit_no_gpu);
    if (devices == 0) throw example::failure(example::exit_no_gpu, "cuDeviceGetCount found no GPU");
    check_cu(cuDeviceGet(&device_, 0), "cuDeviceGet", example::exit_no_gpu);
    char name[256] = {};
    check_cu(cuDeviceGetName(name, int(sizeof name), device_), "cuDeviceGetName", example::exit_no_gpu);
    check_cu(cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain", example::exit_no_gpu);
    check_cu(cuCtxSetCurrent(context_), "cuCtxSetCurrent");
    std::printf("%s: GPU 0: %s\n", program, name);
  }
  ~primary_context() {
    if (context_) cuDevicePrimaryCtxRelease(device_);
  }
  primary_context(const primary_context&) = delete;
  primary_context& operator=(const primary_context&) = delete;

 private:
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

// Device memory for `n` floats, freed on scope exit.
class device_floats {
 public:
  explicit device_floats(std::size_t n) : bytes_(n * sizeof(float)) {
    check_cu(cuMemAlloc(&pointer_, bytes_), "cuMemAlloc");
  }
  ~device_floats() {
    if (pointer_) cuMemFree(pointer_);
  }
  device_floats(const device_floats&) = delete;
  device_floats& operator=(const device_floats&) = delete;

  CUdeviceptr* address() { return &pointer_; }
  void upload(const std::vector<float>& host) { check_cu(cuMemcpyHtoD(pointer_, host.data(), bytes_), "cuMemcpyHtoD"); }
  std::vector<float> download() const {
    std::vector<float> host(bytes_ / sizeof(float));
    check_cu(cuMemcpyDtoH(host.data(), pointer_, bytes_), "cuMemcpyDtoH");
    return host;
  }

 private:
  std::size_t bytes_;
  CUdeviceptr pointer_ = 0;
};

std::vector<float> saxpy_on_gpu(const std::string& ptx, const std::vector<float>& x, const std::vector<float>& y) {
  if (!cushim::available(cushim::library::driver)) {
    throw example::failure(example::exit_no_gpu, std::string("the CUDA driver API is unavailable (") +
                                                     cushim::to_string(cushim::error_of(cushim::library::driver)) +
                                                     ")");
  }
  primary_context context;
  CUmodule module = nullptr;
  check_cu(cuModuleLoadData(&module, ptx.c_str()), "cuModuleLoadData");
  CUfunction saxpy = nullptr;
  CUresult found = cuModuleGetFunction(&saxpy, module, "saxpy");
  device_floats device_x(x.size()), device_y(y.size());
  std::vector<float> result;
  if (found == CUDA_SUCCESS) {
    device_x.upload(x);
    device_y.upload(y);
    float scale = a;
    int n = count;
    void* args[] = {&scale, device_x.address(), device_y.address(), &n};
    check_cu(cuLaunchKernel(saxpy, (count + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr), "cuLaunchKernel");
    check_cu(cuCtxSynchronize(), "cuCtxSynchronize");
    result = device_y.download();
  }
  cuModuleUnload(module);
  check_cu(found, "cuModuleGetFunction");
  return result;
}

int answer_arguments(int argc, char** argv) {
  bool help = argc == 2 && std::strcmp(argv[1], "--help") == 0;
  std::fprintf(help ? stdout : stderr,
               "usage: %s\n  Compiles a kernel with NVRTC and runs it on GPU 0 with the CUDA driver API, both through\n"
               "  cushim, and compares with the CPU.\n"
               "exit: 0 matches within %.0e, 1 differs, 3 no usable GPU, NVRTC or driver (after compiling when\n"
               "      NVRTC works), 4 a call failed, 64 bad command line\n",
               program, example::tolerance);
  return help ? 0 : example::exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) return answer_arguments(argc, argv);
  try {
    std::string ptx = compile_to_ptx();
    example::value_sequence values(7);
    std::vector<float> x = values.take(count, 1.0f), y = values.take(count, 1.0f);
    std::vector<float> expected(y);
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = a * x[i] + y[i];
    return example::report_result(program, example::max_abs_difference(saxpy_on_gpu(ptx, x, y), expected));
  } catch (const example::failure& f) {
    example::print_failure(program, f, "GPU, NVRTC or driver");
    return f.exit_code();
  }
}
