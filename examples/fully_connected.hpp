// The fully connected layer mlp_forward puts after conv_forward's convolution: for each image,
// outputs = W * features, as one cuBLAS SGEMM on the GPU through cushim (CUSHIM_CUBLAS), and the
// same sums on the CPU. Include after gpu_example.hpp.
#pragma once

#include <string>
#include <vector>

#include "gpu_example.hpp"

namespace example {

inline void check_cublas(cublasStatus_t status, const char* call, int exit_code = exit_call_failed) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw failure(exit_code, std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
                               cublasGetStatusString(status) + ")");
}

// A cuBLAS handle, destroyed on scope exit.
class cublas_handle {
 public:
  cublas_handle() {
    if (!cushim::available(cushim::library::cublas)) {
      throw failure(exit_no_gpu, std::string("cuBLAS is unavailable (") +
                                     cushim::to_string(cushim::error_of(cushim::library::cublas)) + ")");
    }
    check_cublas(cublasCreate(&handle_), "cublasCreate", exit_no_gpu);
  }
  ~cublas_handle() {
    if (handle_) cublasDestroy(handle_);
  }
  cublas_handle(const cublas_handle&) = delete;
  cublas_handle& operator=(const cublas_handle&) = delete;

  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// `batch` vectors of `inputs` features each (contiguous) to `outputs` values each. The weights are
// outputs x inputs in column-major order, as cuBLAS counts: weights[o + i * outputs].
struct fully_connected {
  int outputs, inputs, batch;

  std::size_t weight_count() const { return std::size_t(outputs) * std::size_t(inputs); }

  std::vector<float> on_cpu(const std::vector<float>& features, const std::vector<float>& weights) const {
    std::vector<float> y(std::size_t(outputs) * std::size_t(batch));
    for (int b = 0; b < batch; ++b) {
      for (int o = 0; o < outputs; ++o) {
        double sum = 0;
        for (int i = 0; i < inputs; ++i) {
          sum += double(weights[std::size_t(o) + std::size_t(i) * std::size_t(outputs)]) *
                 double(features[std::size_t(b) * std::size_t(inputs) + std::size_t(i)]);
        }
        y[std::size_t(b) * std::size_t(outputs) + std::size_t(o)] = float(sum);
      }
    }
    return y;
  }

  // Y (outputs x batch) = W (outputs x inputs) * X (inputs x batch), the features already on the GPU.
  std::vector<float> on_gpu(const device_array<float>& features, const std::vector<float>& weights) const {
    cublas_handle handle;
    // Plain float arithmetic, as the CPU reference: no TF32 tensor cores.
    check_cublas(cublasSetMathMode(handle.get(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    device_array<float> device_weights(weight_count()), y(std::size_t(outputs) * std::size_t(batch));
    device_weights.upload(weights);
    const float alpha = 1.0f, beta = 0.0f;
    check_cublas(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, outputs, batch, inputs, &alpha,
                             device_weights.get(), outputs, features.get(), inputs, &beta, y.get(), outputs),
                 "cublasSgemm");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after cublasSgemm)");
    return y.download();
  }
};

}  // namespace example
