// conv_forward: a float NCHW convolution with cuDNN, reached through cushim (no -lcudnn -lcudart),
// checked against a CPU reference. Built with CUSHIM_CUBLAS it is mlp_forward: the convolution's
// output then goes through a fully connected layer, a cuBLAS GEMM on the GPU (no -lcublas either).
// Exit codes: gpu_example.hpp (docs/examples.md, "Examples").
#ifdef CUSHIM_CUBLAS
#include <cublas_v2.h>
#endif

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#include <cstdio>
#include <vector>

#include "gpu_example.hpp"
#ifdef CUSHIM_CUBLAS
#include "fully_connected.hpp"
#endif

namespace {

#ifdef CUSHIM_CUBLAS
const char* const program = "mlp_forward";
const char* const needs = "GPU, cuDNN or cuBLAS";
#else
const char* const program = "conv_forward";
const char* const needs = "GPU or cuDNN";
#endif

using example::check_cudnn;
using filter_descriptor =
    example::cudnn_object<cudnnFilterDescriptor_t, cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor>;
using convolution_descriptor = example::cudnn_object<cudnnConvolutionDescriptor_t, cudnnCreateConvolutionDescriptor,
                                                     cudnnDestroyConvolutionDescriptor>;

// N images of C channels, H x W, convolved with K filters of R x S, padding 1, stride 1: the output
// is N x K x H x W.
constexpr int n = 2, c = 3, h = 32, w = 32, k = 8, r = 3, s = 3, pad = 1;

constexpr std::size_t input_count = std::size_t(n) * c * h * w;
constexpr std::size_t filter_count = std::size_t(k) * c * r * s;
constexpr std::size_t output_count = std::size_t(n) * k * h * w;

// What cuDNN's CUDNN_CROSS_CORRELATION computes (no kernel flip), with zero padding.
float output_at(const std::vector<float>& x, const std::vector<float>& filters, int image, int out_channel, int row,
                int col) {
  double sum = 0;
  for (int channel = 0; channel < c; ++channel) {
    for (int i = 0; i < r; ++i) {
      for (int j = 0; j < s; ++j) {
        int y = row + i - pad, z = col + j - pad;
        if (y < 0 || y >= h || z < 0 || z >= w) continue;
        sum += double(x[((std::size_t(image) * c + channel) * h + y) * w + z]) *
               double(filters[((std::size_t(out_channel) * c + channel) * r + i) * s + j]);
      }
    }
  }
  return float(sum);
}

std::vector<float> convolve_on_cpu(const std::vector<float>& x, const std::vector<float>& filters) {
  std::vector<float> y(output_count);
  std::size_t at = 0;
  for (int image = 0; image < n; ++image) {
    for (int out_channel = 0; out_channel < k; ++out_channel) {
      for (int row = 0; row < h; ++row) {
        for (int col = 0; col < w; ++col) y[at++] = output_at(x, filters, image, out_channel, row, col);
      }
    }
  }
  return y;
}

const char* algorithm_name(cudnnConvolutionFwdAlgo_t algorithm) {
  switch (algorithm) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "unknown";
  }
}

struct descriptors {
  example::tensor_descriptor x{"cudnnCreateTensorDescriptor"};
  filter_descriptor filters{"cudnnCreateFilterDescriptor"};
  convolution_descriptor convolution{"cudnnCreateConvolutionDescriptor"};
  example::tensor_descriptor y{"cudnnCreateTensorDescriptor"};
};

void describe(descriptors& d) {
  check_cudnn(cudnnSetTensor4dDescriptor(d.x.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w),
              "cudnnSetTensor4dDescriptor (x)");
  check_cudnn(cudnnSetFilter4dDescriptor(d.filters.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, r, s),
              "cudnnSetFilter4dDescriptor");
  check_cudnn(cudnnSetConvolution2dDescriptor(d.convolution.get(), pad, pad, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT),
              "cudnnSetConvolution2dDescriptor");
  // Plain float arithmetic: TF32 tensor cores (allowed by the default math type) would miss 1e-3.
  check_cudnn(cudnnSetConvolutionMathType(d.convolution.get(), CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
  int dims[4] = {};
  check_cudnn(cudnnGetConvolution2dForwardOutputDim(d.convolution.get(), d.x.get(), d.filters.get(), &dims[0], &dims[1],
                                                    &dims[2], &dims[3]),
              "cudnnGetConvolution2dForwardOutputDim");
  if (dims[0] != n || dims[1] != k || dims[2] != h || dims[3] != w) {
    throw example::failure(example::exit_call_failed, "cudnnGetConvolution2dForwardOutputDim: unexpected shape");
  }
  check_cudnn(cudnnSetTensor4dDescriptor(d.y.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, h, w),
              "cudnnSetTensor4dDescriptor (y)");
}

// cuDNN's first choice among the algorithms it can run for these descriptors.
cudnnConvolutionFwdAlgo_t choose_algorithm(cudnnHandle_t handle, const descriptors& d) {
  cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {};
  int returned = 0;
  check_cudnn(cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x.get(), d.filters.get(), d.convolution.get(), d.y.get(),
                                                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, results),
              "cudnnGetConvolutionForwardAlgorithm_v7");
  for (int i = 0; i < returned; ++i) {
    if (results[i].status == CUDNN_STATUS_SUCCESS) return results[i].algo;
  }
  throw example::failure(example::exit_call_failed, "cudnnGetConvolutionForwardAlgorithm_v7 offered no algorithm");
}

// The convolution of x with the filters into `device_y`, on the GPU.
void convolve_on_gpu(cudnnHandle_t handle, const std::vector<float>& x, const std::vector<float>& filters,
                     const example::device_array<float>& device_y) {
  descriptors d;
  describe(d);
  cudnnConvolutionFwdAlgo_t algorithm = choose_algorithm(handle, d);
  std::size_t workspace_bytes = 0;
  check_cudnn(cudnnGetConvolutionForwardWorkspaceSize(handle, d.x.get(), d.filters.get(), d.convolution.get(),
                                                      d.y.get(), algorithm, &workspace_bytes),
              "cudnnGetConvolutionForwardWorkspaceSize");
  std::printf("%s: algorithm %s (%d), workspace %zu bytes\n", program, algorithm_name(algorithm), int(algorithm),
              workspace_bytes);

  example::device_array<float> device_x(input_count), device_filters(filter_count);
  example::device_array<unsigned char> workspace(workspace_bytes);
  device_x.upload(x);
  device_filters.upload(filters);
  const float alpha = 1.0f, beta = 0.0f;
  check_cudnn(cudnnConvolutionForward(handle, &alpha, d.x.get(), device_x.get(), d.filters.get(), device_filters.get(),
                                      d.convolution.get(), algorithm, workspace.get(), workspace_bytes, &beta,
                                      d.y.get(), device_y.get()),
              "cudnnConvolutionForward");
  example::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after cudnnConvolutionForward)");
}

int compare_with_cpu(cudnnHandle_t handle) {
  example::value_sequence values(2024);
  std::vector<float> x = values.take(input_count, 1.0f);
  std::vector<float> filters = values.take(filter_count, 0.5f);
  std::printf("%s: x %dx%dx%dx%d (NCHW), %d filters %dx%d, padding %d\n", program, n, c, h, w, k, r, s, pad);
  example::device_array<float> device_y(output_count);
  convolve_on_gpu(handle, x, filters, device_y);
#ifdef CUSHIM_CUBLAS
  // Each image's K x H x W outputs, contiguous in NCHW, are one feature vector of the layer.
  example::fully_connected layer{10, k * h * w, n};
  std::vector<float> weights = values.take(layer.weight_count(), 0.01f);
  std::printf("%s: fully connected %d -> %d for %d images (cublasSgemm)\n", program, layer.inputs, layer.outputs, n);
  double error =
      example::max_abs_difference(layer.on_gpu(device_y, weights), layer.on_cpu(convolve_on_cpu(x, filters), weights));
#else
  double error = example::max_abs_difference(device_y.download(), convolve_on_cpu(x, filters));
#endif
  return example::report_result(program, error);
}

}  // namespace

int main(int argc, char** argv) { return example::run(program, argc, argv, compare_with_cpu, needs); }
