// lstm_forward: inference of a two-layer LSTM with cuDNN's v8 RNN API (in cuDNN 8 and 9), reached
// through cushim (no -lcudnn -lcudart), checked against a CPU LSTM with the same weights.
// Exit codes: gpu_example.hpp (docs/examples.md, "Examples").
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpu_example.hpp"

namespace {

using example::check_cudnn;
using rnn_descriptor = example::cudnn_object<cudnnRNNDescriptor_t, cudnnCreateRNNDescriptor, cudnnDestroyRNNDescriptor>;
using rnn_data_descriptor =
    example::cudnn_object<cudnnRNNDataDescriptor_t, cudnnCreateRNNDataDescriptor, cudnnDestroyRNNDataDescriptor>;
using dropout_descriptor =
    example::cudnn_object<cudnnDropoutDescriptor_t, cudnnCreateDropoutDescriptor, cudnnDestroyDropoutDescriptor>;

constexpr int seq_length = 6, batch = 3, input_size = 8, hidden = 16, layers = 2;
constexpr int gates = 4;  // i, f, g, o, in cuDNN's order
// cuDNN's linLayerID: 0-3 the input weights W of gates i, f, g, o; 4-7 the recurrent weights R.
constexpr int linear_layers = 2 * gates;

constexpr std::size_t input_count = std::size_t(seq_length) * batch * input_size;  // x: time, batch, input
constexpr std::size_t output_count = std::size_t(seq_length) * batch * hidden;     // y: time, batch, hidden
constexpr std::size_t state_count = std::size_t(layers) * batch * hidden;          // h, c: layer, batch, hidden

// One layer's parameters, by linLayerID: row-major hidden x columns matrices (columns: the layer's
// input size for W, hidden for R) and biases (bW for 0-3, bR for 4-7: cuDNN's double bias).
struct layer_weights {
  int input_columns = 0;
  std::vector<float> matrix[linear_layers];
  std::vector<float> bias[linear_layers];

  int columns(int id) const { return id < gates ? input_columns : hidden; }
};

std::vector<layer_weights> make_weights(example::value_sequence& values) {
  std::vector<layer_weights> model(layers);
  for (int layer = 0; layer < layers; ++layer) {
    layer_weights& weights = model[std::size_t(layer)];
    weights.input_columns = layer == 0 ? input_size : hidden;
    for (int id = 0; id < linear_layers; ++id) {
      weights.matrix[id] = values.take(std::size_t(hidden) * std::size_t(weights.columns(id)), 0.3f);
      weights.bias[id] = values.take(hidden, 0.1f);
    }
  }
  return model;
}

// --- The CPU reference -------------------------------------------------------------------------

float sigmoid(double v) { return float(1.0 / (1.0 + std::exp(-v))); }

// W x + R h + bW + bR for gate `gate`, hidden unit `unit`.
double gate_input(const layer_weights& weights, int gate, int unit, const float* x, const float* h) {
  double sum = double(weights.bias[gate][std::size_t(unit)]) + double(weights.bias[gate + gates][std::size_t(unit)]);
  const float* w = &weights.matrix[gate][std::size_t(unit) * std::size_t(weights.input_columns)];
  for (int col = 0; col < weights.input_columns; ++col) sum += double(w[col]) * double(x[col]);
  const float* r = &weights.matrix[gate + gates][std::size_t(unit) * hidden];
  for (int col = 0; col < hidden; ++col) sum += double(r[col]) * double(h[col]);
  return sum;
}

// One time step of one layer for one sequence: h and c (hidden values each) are updated in place.
void lstm_cell(const layer_weights& weights, const float* x, float* h, float* c) {
  double pre[gates][hidden];
  for (int gate = 0; gate < gates; ++gate) {
    for (int unit = 0; unit < hidden; ++unit) pre[gate][unit] = gate_input(weights, gate, unit, x, h);
  }
  for (int unit = 0; unit < hidden; ++unit) {
    float i = sigmoid(pre[0][unit]), f = sigmoid(pre[1][unit]), o = sigmoid(pre[3][unit]);
    float g = float(std::tanh(pre[2][unit]));
    c[unit] = f * c[unit] + i * g;
    h[unit] = o * std::tanh(c[unit]);
  }
}

struct lstm_output {
  std::vector<float> y, hy, cy;
};

lstm_output lstm_on_cpu(const std::vector<layer_weights>& model, const std::vector<float>& x,
                        const std::vector<float>& hx, const std::vector<float>& cx) {
  lstm_output out{{}, hx, cx};  // hy and cy start as hx and cx and are updated step by step
  std::vector<float> layer_input = x;
  for (int layer = 0; layer < layers; ++layer) {
    const layer_weights& weights = model[std::size_t(layer)];
    std::vector<float> layer_output(output_count);
    for (int t = 0; t < seq_length; ++t) {
      for (int b = 0; b < batch; ++b) {
        std::size_t state = (std::size_t(layer) * batch + std::size_t(b)) * hidden;
        std::size_t step = std::size_t(t) * batch + std::size_t(b);
        lstm_cell(weights, &layer_input[step * std::size_t(weights.input_columns)], &out.hy[state], &out.cy[state]);
        std::copy_n(&out.hy[state], hidden, &layer_output[step * hidden]);
      }
    }
    layer_input = std::move(layer_output);
  }
  out.y = std::move(layer_input);
  return out;
}

// --- cuDNN ---------------------------------------------------------------------------------------

struct descriptors {
  dropout_descriptor dropout{"cudnnCreateDropoutDescriptor"};
  rnn_descriptor rnn{"cudnnCreateRNNDescriptor"};
  rnn_data_descriptor x{"cudnnCreateRNNDataDescriptor"};
  rnn_data_descriptor y{"cudnnCreateRNNDataDescriptor"};
  example::tensor_descriptor state{"cudnnCreateTensorDescriptor"};  // h and c: layers x batch x hidden
};

void describe_sequence(const rnn_data_descriptor& d, int vector_size, const char* call) {
  std::vector<int> lengths(batch, seq_length);
  // Every sequence has the full length, so the packed sequence-major layout is x[time][batch][vector].
  check_cudnn(cudnnSetRNNDataDescriptor(d.get(), CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED, seq_length,
                                        batch, vector_size, lengths.data(), nullptr),
              call);
}

void describe(cudnnHandle_t handle, descriptors& d) {
  // Dropout 0 needs no random state: cuDNN only records the rate.
  check_cudnn(cudnnSetDropoutDescriptor(d.dropout.get(), handle, 0.0f, nullptr, 0, 0), "cudnnSetDropoutDescriptor");
  // CUDNN_FMA_MATH: plain float arithmetic; TF32 tensor cores would miss the 1e-3 tolerance.
  check_cudnn(cudnnSetRNNDescriptor_v8(d.rnn.get(), CUDNN_RNN_ALGO_STANDARD, CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS,
                                       CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT,
                                       CUDNN_FMA_MATH, input_size, hidden, hidden /* projSize: no projection */, layers,
                                       d.dropout.get(), CUDNN_RNN_PADDED_IO_DISABLED),
              "cudnnSetRNNDescriptor_v8");
  describe_sequence(d.x, input_size, "cudnnSetRNNDataDescriptor (x)");
  describe_sequence(d.y, hidden, "cudnnSetRNNDataDescriptor (y)");
  int dims[3] = {layers, batch, hidden};
  int strides[3] = {batch * hidden, hidden, 1};
  check_cudnn(cudnnSetTensorNdDescriptor(d.state.get(), CUDNN_DATA_FLOAT, 3, dims, strides),
              "cudnnSetTensorNdDescriptor (h, c)");
}

std::size_t element_count(const example::tensor_descriptor& d) {
  cudnnDataType_t type{};
  int rank = 0, dims[8] = {}, strides[8] = {};
  check_cudnn(cudnnGetTensorNdDescriptor(d.get(), 8, &type, &rank, dims, strides), "cudnnGetTensorNdDescriptor");
  std::size_t count = 1;
  for (int i = 0; i < rank && i < 8; ++i) count *= std::size_t(dims[i]);
  return count;
}

// Copies `values` into the host image of the weight space where cuDNN placed that parameter.
void place(std::vector<float>& space, const void* space_start, const void* address, const example::tensor_descriptor& d,
           const std::vector<float>& values) {
  std::ptrdiff_t offset = static_cast<const char*>(address) - static_cast<const char*>(space_start);
  bool inside = address && offset >= 0 && offset % std::ptrdiff_t(sizeof(float)) == 0 &&
                std::size_t(offset) / sizeof(float) + values.size() <= space.size();
  if (!inside || element_count(d) != values.size()) {
    throw example::failure(example::exit_call_failed,
                           "cudnnGetRNNWeightParams: a parameter of unexpected place or size");
  }
  std::copy(values.begin(), values.end(), space.begin() + offset / std::ptrdiff_t(sizeof(float)));
}

// The weight space as cuDNN lays it out, filled from the model (cudnnGetRNNWeightParams gives each
// matrix's and bias's address inside the device buffer).
std::vector<float> weight_space_image(cudnnHandle_t handle, const descriptors& d,
                                      const example::device_array<float>& space, std::size_t weight_bytes,
                                      const std::vector<layer_weights>& model) {
  std::vector<float> image(space.bytes() / sizeof(float), 0.0f);
  example::tensor_descriptor matrix_desc("cudnnCreateTensorDescriptor"), bias_desc("cudnnCreateTensorDescriptor");
  for (int layer = 0; layer < layers; ++layer) {
    for (int id = 0; id < linear_layers; ++id) {
      void* matrix = nullptr;
      void* bias = nullptr;
      check_cudnn(cudnnGetRNNWeightParams(handle, d.rnn.get(), layer, weight_bytes, space.get(), id, matrix_desc.get(),
                                          &matrix, bias_desc.get(), &bias),
                  "cudnnGetRNNWeightParams");
      place(image, space.get(), matrix, matrix_desc, model[std::size_t(layer)].matrix[id]);
      place(image, space.get(), bias, bias_desc, model[std::size_t(layer)].bias[id]);
    }
  }
  return image;
}

lstm_output lstm_on_gpu(cudnnHandle_t handle, const std::vector<layer_weights>& model, const std::vector<float>& x,
                        const std::vector<float>& hx, const std::vector<float>& cx) {
  descriptors d;
  describe(handle, d);
  std::size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
  check_cudnn(cudnnGetRNNWeightSpaceSize(handle, d.rnn.get(), &weight_bytes), "cudnnGetRNNWeightSpaceSize");
  check_cudnn(
      cudnnGetRNNTempSpaceSizes(handle, d.rnn.get(), CUDNN_FWD_MODE_INFERENCE, d.x.get(), &work_bytes, &reserve_bytes),
      "cudnnGetRNNTempSpaceSizes");
  std::printf("lstm_forward: weight space %zu bytes, workspace %zu bytes\n", weight_bytes, work_bytes);

  example::device_array<float> weights((weight_bytes + sizeof(float) - 1) / sizeof(float));
  weights.upload(weight_space_image(handle, d, weights, weight_bytes, model));
  example::device_array<float> device_x(input_count), device_y(output_count);
  example::device_array<float> device_hx(state_count), device_cx(state_count), device_hy(state_count),
      device_cy(state_count);
  example::device_array<std::int32_t> lengths(batch);
  example::device_array<unsigned char> work(work_bytes), reserve(reserve_bytes);
  device_x.upload(x);
  device_hx.upload(hx);
  device_cx.upload(cx);
  lengths.upload(std::vector<std::int32_t>(batch, seq_length));

  check_cudnn(cudnnRNNForward(handle, d.rnn.get(), CUDNN_FWD_MODE_INFERENCE, lengths.get(), d.x.get(), device_x.get(),
                              d.y.get(), device_y.get(), d.state.get(), device_hx.get(), device_hy.get(), d.state.get(),
                              device_cx.get(), device_cy.get(), weight_bytes, weights.get(), work.bytes(), work.get(),
                              reserve.bytes(), reserve.get()),
              "cudnnRNNForward");
  example::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (after cudnnRNNForward)");
  return {device_y.download(), device_hy.download(), device_cy.download()};
}

int compare_lstms(cudnnHandle_t handle) {
  example::value_sequence values(7);
  std::vector<layer_weights> model = make_weights(values);
  std::vector<float> x = values.take(input_count, 1.0f);
  std::vector<float> hx = values.take(state_count, 0.5f);
  std::vector<float> cx = values.take(state_count, 0.5f);
  std::printf("lstm_forward: LSTM, %d layers, input %d, hidden %d, batch %d, sequence length %d\n", layers, input_size,
              hidden, batch, seq_length);
  lstm_output gpu = lstm_on_gpu(handle, model, x, hx, cx);
  lstm_output cpu = lstm_on_cpu(model, x, hx, cx);
  double error = std::max({example::max_abs_difference(gpu.y, cpu.y), example::max_abs_difference(gpu.hy, cpu.hy),
                           example::max_abs_difference(gpu.cy, cpu.cy)});
  return example::report_result("lstm_forward", error);
}

}  // namespace

int main(int argc, char** argv) { return example::run("lstm_forward", argc, argv, compare_lstms); }
