// How to install each framework's CUDA build, as framework_specs.hpp names it per framework;
// "{cuda}" stands for a CUDA tag such as 124 (words::install_text puts in what this driver takes).
#pragma once

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

constexpr const char* install_torch =
    "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu{cuda}";
constexpr const char* install_tensorflow =
    "pip install \"tensorflow[and-cuda]\" (Linux; TensorFlow 2.10 was the last with GPU support on native Windows)";
constexpr const char* install_onnxruntime =
    "pip uninstall onnxruntime, then pip install onnxruntime-gpu (the two share the onnxruntime folder)";
constexpr const char* install_paddle =
    "pip install paddlepaddle-gpu from the package index of a CUDA the driver supports";
constexpr const char* install_jax = "pip install \"jax[cuda12]\" (or jax[cuda13])";
constexpr const char* install_cupy =
    "pip install cupy-cuda12x (or cupy-cuda13x) for the CUDA major the driver supports";
constexpr const char* install_opencv =
    "build OpenCV from source with WITH_CUDA=ON, WITH_CUDNN=ON and OPENCV_DNN_CUDA=ON and install its Python "
    "module in place of opencv-python (pip's opencv-python wheels are built without CUDA)";

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
