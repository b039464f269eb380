// What conv_forward (and mlp_forward), lstm_forward and nvrtc_saxpy share: their exit codes, the check that a GPU and
// cuDNN can be used, return-code checks that name the failed call, device memory and cuDNN objects that free
// themselves, deterministic test data, and the comparison with the CPU reference.
// Include after <cushim/cushim.hpp> (the example defines CUSHIM_IMPLEMENTATION there).
#pragma once

#include <cushim/status.hpp>  // explain()

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace example {

// Exit codes (docs/examples.md, "Examples").
constexpr int exit_matches = 0;      // the GPU's result matches the CPU reference within the tolerance
constexpr int exit_differs = 1;      // it does not
constexpr int exit_no_gpu = 3;       // no usable GPU or cuDNN: a library, the driver or the device is missing
constexpr int exit_call_failed = 4;  // a CUDA or cuDNN call failed during the computation
constexpr int exit_usage = 64;       // bad command line

constexpr double tolerance = 1e-3;  // largest absolute difference from the CPU reference accepted

// A failed check: run() prints it with cushim's explanation and exits with its code.
class failure : public std::runtime_error {
 public:
  failure(int exit_code, const std::string& message) : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

inline void check_cuda(cudaError_t error, const char* call, int exit_code = exit_call_failed) {
  if (error == cudaSuccess) return;
  throw failure(exit_code,
                std::string(call) + " failed: " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")");
}

// cuDNN's own description of its last error, when this cuDNN keeps one (9 and later).
inline std::string cudnn_last_error() {
#if CUDNN_MAJOR >= 9
  char message[512] = {};
  cudnnGetLastErrorString(message, sizeof message);
  return message[0] ? std::string(" (cuDNN: ") + message + ")" : std::string();
#else
  return {};
#endif
}

inline void check_cudnn(cudnnStatus_t status, const char* call, int exit_code = exit_call_failed) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  throw failure(exit_code, std::string(call) + " failed: " + cudnnGetErrorString(status) + cudnn_last_error());
}

// Device memory for `count` values of T, freed on scope exit.
template <class T>
class device_array {
 public:
  explicit device_array(std::size_t count) : count_(count) {
    if (count_ > 0) check_cuda(cudaMalloc(&data_, bytes()), "cudaMalloc");
  }
  ~device_array() {
    if (data_) cudaFree(data_);  // nothing to do about a failure here: the result is already decided
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;

  T* get() const { return static_cast<T*>(data_); }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw failure(exit_call_failed, "internal error: upload of the wrong size");
    check_cuda(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice), "cudaMemcpy (host to device)");
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    check_cuda(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy (device to host)");
    return host;
  }

 private:
  std::size_t count_;
  void* data_ = nullptr;
};

// A cuDNN handle or descriptor, destroyed on scope exit.
template <class Handle, cudnnStatus_t (*Create)(Handle*), cudnnStatus_t (*Destroy)(Handle)>
class cudnn_object {
 public:
  explicit cudnn_object(const char* create_call, int exit_code = exit_call_failed) {
    check_cudnn(Create(&handle_), create_call, exit_code);
  }
  ~cudnn_object() {
    if (handle_) Destroy(handle_);
  }
  cudnn_object(const cudnn_object&) = delete;
  cudnn_object& operator=(const cudnn_object&) = delete;

  Handle get() const { return handle_; }

 private:
  Handle handle_{};
};

using cudnn_handle = cudnn_object<cudnnHandle_t, cudnnCreate, cudnnDestroy>;
using tensor_descriptor =
    cudnn_object<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor>;

// The same values in [-scale, scale] on every run and machine (a linear congruential generator).
class value_sequence {
 public:
  explicit value_sequence(std::uint32_t seed) : state_(seed) {}

  float next(float scale) {
    state_ = state_ * 1664525u + 1013904223u;
    return scale * (float((state_ >> 8) & 0xffffu) / 32767.5f - 1.0f);
  }
  std::vector<float> take(std::size_t count, float scale) {
    std::vector<float> values(count);
    for (float& v : values) v = next(scale);
    return values;
  }

 private:
  std::uint32_t state_;
};

// The largest |a[i] - b[i]|; infinity when the sizes differ or a value is not a number.
inline double max_abs_difference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    double difference = std::fabs(double(a[i]) - double(b[i]));
    if (std::isnan(difference)) return std::numeric_limits<double>::infinity();
    if (difference > worst) worst = difference;
  }
  return worst;
}

inline int report_result(const char* program, double max_error) {
  bool matches = max_error <= tolerance;
  std::printf("%s: max abs error %.3g (tolerance %.0e): %s\n", program, max_error, tolerance,
              matches ? "OK" : "MISMATCH");
  return matches ? exit_matches : exit_differs;
}

// Throws unless both libraries load and the CUDA runtime sees a GPU; names GPU 0.
inline void require_usable_gpu(const char* program) {
  for (cushim::library lib : {cushim::library::cudart, cushim::library::cudnn}) {
    if (cushim::available(lib)) continue;
    throw failure(exit_no_gpu, std::string(lib == cushim::library::cudnn ? "cuDNN" : "the CUDA runtime") +
                                   " is unavailable (" + cushim::to_string(cushim::error_of(lib)) + ")");
  }
  int count = 0;
  check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount", exit_no_gpu);
  if (count == 0) throw failure(exit_no_gpu, "cudaGetDeviceCount found no GPU");
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties", exit_no_gpu);
  std::printf("%s: GPU 0: %s, compute capability %d.%d\n", program, prop.name, prop.major, prop.minor);
}

// `needs`: what exit_no_gpu lacks ("GPU or cuDNN").
inline void print_failure(const char* program, const failure& f, const char* needs) {
  std::fflush(stdout);  // what the program printed so far comes first, also into one pipe
  std::string kind = f.exit_code() == exit_no_gpu ? std::string("no usable ") + needs + ": " : "";
  std::fprintf(stderr, "%s: %s%s\n\n%s", program, kind.c_str(), f.what(), cushim::explain().c_str());
}

// --help prints the usage and exits 0; any other argument is an error (exit 64).
inline int answer_arguments(const char* program, int argc, char** argv) {
  bool help = argc == 2 && std::strcmp(argv[1], "--help") == 0;
  std::fprintf(help ? stdout : stderr,
               "usage: %s\n  Computes on GPU 0 with cuDNN through cushim and compares with the CPU.\n"
               "exit: 0 matches within %.0e, 1 differs, 3 no usable GPU or cuDNN, 4 a CUDA or cuDNN call "
               "failed, 64 bad command line\n",
               program, tolerance);
  return help ? 0 : exit_usage;
}

// The whole program: arguments, the GPU check, a cuDNN handle, then the example's computation,
// which returns exit_matches or exit_differs. Every failure ends here with its exit code.
inline int run(const char* program, int argc, char** argv, int (*compute)(cudnnHandle_t),
               const char* needs = "GPU or cuDNN") {
  if (argc > 1) return answer_arguments(program, argc, argv);
  try {
    require_usable_gpu(program);
    cudnn_handle handle("cudnnCreate", exit_no_gpu);
    return compute(handle.get());
  } catch (const failure& f) {
    print_failure(program, f, needs);
    return f.exit_code();
  }
}

}  // namespace example
