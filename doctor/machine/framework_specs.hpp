// Each framework discovery knows, as data: the pip distributions it comes in, the generated
// Python file that says how it was built and the names of its values there, its CUDA-bound
// native library on each platform, and the loader that loads it. frameworks.hpp reads them and
// never names a framework; the loaders are in posix/ and windows/framework_loader.hpp.
#pragma once

#include <cushim/detail/search/descriptor.hpp>
#include "../words/install.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

enum class loader_model {
  torch,             // torch/__init__.py: Linux global deps and the nvidia wheels' fallback;
                     // Windows add_dll_directory, then LoadLibraryExW(0x1100) of every torch/lib/*.dll
  python_extension,  // loaded as Python loads an extension module or ctypes a library (3.8 and later)
  wheel_libraries,   // loads each of its `wheel_libraries` from its nvidia-* wheel's folder, else by name
  paddle,            // an extension module, then cuDNN by name at its first GPU call (windows/framework_loader.hpp)
  opencv,            // cv2's own loader: config.py's BINARIES_PATHS, then the native module; built with
                     // CUDA when its imports reach CUDA's libraries
};

// A library a framework loads itself, by path, from an nvidia-* wheel's folder
// (site-packages/nvidia/<module>/lib), and by name where that folder does not have it.
struct wheel_library {
  int cuda_major;      // the CUDA major of the framework's build it belongs to
  const char* module;  // nvidia/<module>
  const char* file;    // Linux's file name
};

// jax_plugins/cuda/__init__.py, _load_nvidia_libraries (jax 0.4.31 and later): the wheels first, then
// XLA's own loads by name find what is not loaded.
constexpr wheel_library jax_libraries[] = {
    {12, "cuda_runtime", "libcudart.so.12"}, {12, "cuda_nvrtc", "libnvrtc.so.12"},
    {12, "cublas", "libcublas.so.12"},       {12, "cublas", "libcublasLt.so.12"},
    {12, "cusparse", "libcusparse.so.12"},   {12, "cusolver", "libcusolver.so.11"},
    {12, "cufft", "libcufft.so.11"},         {12, "cudnn", "libcudnn.so.9"},
    {13, "cu13", "libcudart.so.13"},         {13, "cu13", "libnvrtc.so.13"},
    {13, "cu13", "libcublas.so.13"},         {13, "cu13", "libcublasLt.so.13"},
    {13, "cu13", "libcusparse.so.12"},       {13, "cu13", "libcusolver.so.12"},
    {13, "cu13", "libcufft.so.12"},          {13, "cudnn", "libcudnn.so.9"}};

// torch/__init__.py on Linux: libtorch_global_deps.so (RTLD_GLOBAL), whose fallback names these
// nvidia-* wheels; a torch 2.11.0+cu130 process mapped every one of them from the wheels'
// folders after a conv2d and a matmul (gpu-machine-2026-12-04). Loaded besides its import walk.
constexpr wheel_library torch_libraries[] = {
    {12, "cuda_runtime", "libcudart.so.12"}, {12, "cublas", "libcublas.so.12"},
    {12, "cublas", "libcublasLt.so.12"},     {12, "cufft", "libcufft.so.11"},
    {12, "curand", "libcurand.so.10"},       {12, "cusolver", "libcusolver.so.11"},
    {12, "cusparse", "libcusparse.so.12"},   {12, "nvjitlink", "libnvJitLink.so.12"},
    {12, "cuda_nvrtc", "libnvrtc.so.12"},    {13, "cu13", "libcudart.so.13"},
    {13, "cu13", "libcublas.so.13"},         {13, "cu13", "libcublasLt.so.13"},
    {13, "cu13", "libcufft.so.12"},          {13, "cu13", "libcurand.so.10"},
    {13, "cu13", "libcusolver.so.12"},       {13, "cu13", "libcusparse.so.12"},
    {13, "cu13", "libnvJitLink.so.13"},      {13, "cu13", "libnvrtc.so.13"}};

// CuPy 14 through cuda.pathfinder (load_nvidia_dynamic_lib: the site-packages wheels, then the
// system loader by name): what a matmul and a kernel compiled at run time load; its CUDA runtime is
// linked into it.
constexpr wheel_library cupy_libraries[] = {
    {11, "cublas", "libcublas.so.11"}, {11, "cublas", "libcublasLt.so.11"}, {11, "cuda_nvrtc", "libnvrtc.so.11.2"},
    {12, "cublas", "libcublas.so.12"}, {12, "cublas", "libcublasLt.so.12"}, {12, "cuda_nvrtc", "libnvrtc.so.12"},
    {13, "cu13", "libcublas.so.13"},   {13, "cu13", "libcublasLt.so.13"},   {13, "cu13", "libnvrtc.so.13"}};

struct framework_spec {
  const char* name;               // "torch": how the report names it
  const char* package;            // its folder in site-packages; null: found by its distribution only
  const char* distributions[6];   // dist-info names, normalised ('-' and '.' as '_', lower case), null-ended
  const char* version_file;       // '/'-separated, relative to site-packages; null: none
  const char* version_key;        // its version there; null: the distribution's METADATA says
  const char* cuda_key;           // the CUDA it was built for ("12.4", None for a CPU build)
  const char* cudnn_key;          // the cuDNN it was built for
  const char* hip_key;            // a ROCm build's HIP version
  const char* cuda_build_key;     // True for a CUDA build, where the file says so
  const char* rocm_build_key;     // True for a ROCm build
  const char* architectures_key;  // the GPU architectures built ("sm_75", ...)
  const char* by_name_keys[3];    // file names it loads by name at run time, where the file names them
  const char* linux_native[3];    // its CUDA-bound library, the first that exists; null-ended
  const char* windows_native[3];
  bool cuda_in_distribution;     // the distribution's name says the CUDA major: cupy-cuda12x, jax-cuda12-plugin
  const char* cpu_distribution;  // the distribution that is its CPU-only build, when its files do not say; or null
  const char* cuda_install;      // how to install its CUDA build; "{cuda}" stands for a CUDA tag such as 124
  loader_model loader;
  fixed_list<wheel_library> wheel_libraries;   // what it loads from the nvidia-* wheels (torch: besides its imports)
  const char* display_name;                    // how a sentence names it: "JAX", "CuPy"
  bool cpu_build_is_usual;                     // a CPU build is what most installs are: a note, not a problem
  fixed_list<const char*> linux_driver_loads;  // the driver's libraries a CUDA build loads by name, on Linux
};

// torch's CUDA build loads NVML by name (c10's CUDA allocator and device checks): the H200's torch
// process mapped libnvidia-ml.so.1 from where the driver is (gpu-machine-2026-12-04).
constexpr const char* torch_driver_loads[] = {"libnvidia-ml.so.1"};

constexpr framework_spec framework_specs[] = {
    {"torch",
     "torch",
     {"torch", nullptr},
     "torch/version.py",
     "__version__",
     "cuda",
     nullptr,
     "hip",
     nullptr,
     nullptr,
     nullptr,
     {nullptr},
     {"torch/lib/libtorch_cuda.so", nullptr},
     {"torch/lib/torch_cuda.dll", nullptr},
     false,
     nullptr,
     words::install_torch,
     loader_model::torch,
     torch_libraries,
     "torch",
     false,
     torch_driver_loads},
    {"tensorflow",
     "tensorflow",
     {"tensorflow", "tensorflow_gpu", "tensorflow_cpu", "tensorflow_intel", "tf_nightly", nullptr},
     "tensorflow/python/platform/build_info.py",
     nullptr,
     "cuda_version",
     "cudnn_version",
     nullptr,
     "is_cuda_build",
     "is_rocm_build",
     "cuda_compute_capabilities",
     {"cudart_dll_name", "cudnn_dll_name", nullptr},
     {"tensorflow/python/_pywrap_tensorflow_internal.so", nullptr},
     {"tensorflow/python/_pywrap_tensorflow_internal.pyd", nullptr},
     false,
     nullptr,
     words::install_tensorflow,
     loader_model::python_extension,
     {},
     "TensorFlow",
     false,
     {}},
    {"onnxruntime",
     "onnxruntime",
     {"onnxruntime_gpu", "onnxruntime", nullptr},
     "onnxruntime/capi/build_and_package_info.py",
     "__version__",
     "cuda_version",
     "cudnn_version",
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     {nullptr},
     {"onnxruntime/capi/libonnxruntime_providers_cuda.so", nullptr},
     {"onnxruntime/capi/onnxruntime_providers_cuda.dll", nullptr},
     false,
     "onnxruntime",
     words::install_onnxruntime,
     loader_model::python_extension,
     {},
     "onnxruntime",
     false,
     {}},
    {"paddle",
     "paddle",
     {"paddlepaddle_gpu", "paddlepaddle", nullptr},
     "paddle/version/__init__.py",
     "full_version",
     "cuda_version",
     "cudnn_version",
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     {nullptr},
     {"paddle/base/libpaddle.so", "paddle/fluid/libpaddle.so", nullptr},
     {"paddle/base/libpaddle.pyd", "paddle/fluid/libpaddle.pyd", nullptr},
     false,
     nullptr,
     words::install_paddle,
     loader_model::paddle,
     {},
     "Paddle",
     false,
     {}},
    {"jax",
     nullptr,
     {"jax_cuda12_plugin", "jax_cuda13_plugin", nullptr},
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     {nullptr},
     {"jax_plugins/xla_cuda12/xla_cuda_plugin.so", "jax_plugins/xla_cuda13/xla_cuda_plugin.so", nullptr},
     {nullptr},
     true,
     nullptr,
     words::install_jax,
     loader_model::wheel_libraries,
     jax_libraries,
     "JAX",
     false,
     {}},
    {"cupy",
     "cupy",
     {"cupy_cuda11x", "cupy_cuda12x", "cupy_cuda13x", nullptr},
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     {nullptr},
     {nullptr},
     {nullptr},
     true,
     nullptr,
     words::install_cupy,
     loader_model::wheel_libraries,
     cupy_libraries,
     "CuPy",
     false,
     {}},
    {"opencv",
     "cv2",
     {"opencv_python", "opencv_contrib_python", "opencv_python_headless", "opencv_contrib_python_headless", nullptr},
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     {nullptr},
     {nullptr},
     {"cv2/cv2.pyd", nullptr},
     false,
     nullptr,
     words::install_opencv,
     loader_model::opencv,
     {},
     "OpenCV",
     true,
     {}},
};

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
