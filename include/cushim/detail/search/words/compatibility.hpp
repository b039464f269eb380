// The words of NVIDIA's compatibility facts (compatibility.hpp): what each CUDA major dropped, why a
// known-bad build is bad and what to install instead, and where a row comes from. Constants, not
// constructors: the tables are constexpr data that name them, and cushim-doctor's words
// (doctor/words/compatibility.hpp, cudnn.hpp) build the sentences around them.
#pragma once

namespace cushim {
namespace detail {
namespace {
namespace words {

// --- Sources ---
constexpr const char* source_toolkit_drivers = "CUDA Toolkit release notes, toolkit driver versions";
constexpr const char* source_cuda_12_dropped = "CUDA 12.0 release notes (deprecated and dropped features)";
constexpr const char* source_cuda_13_dropped = "CUDA 13.0 release notes (dropped features)";
constexpr const char* source_jax_cudnn_check =
    "JAX CUDA plugin version checks (jax_plugins cuda, cuDNN 9.10.0 runtime)";
constexpr const char* source_torch_cu130_architectures = "pytorch/pytorch#157517 (cu130 covers SM 7.5 and later)";

// --- The GPUs a CUDA major dropped ---
constexpr const char* cuda_12_dropped = "SM 3.5 and 3.7 (Kepler)";
constexpr const char* cuda_13_dropped = "Maxwell, Pascal and Volta (SM 5.x, 6.x and 7.0)";

// --- Known-bad builds: why, and the fix ---
constexpr const char* cudnn_9_10_0_why =
    "JAX's CUDA plugin refuses cuDNN 9.10.0 (\"Outdated cuDNN installation found\"): NVIDIA fixed its defect in "
    "9.10.1";
constexpr const char* cudnn_9_10_0_fix = "install cuDNN 9.10.1 or newer";
constexpr const char* cudnn_cu13_9_20_0_48_why =
    "this wheel lacks libcudnn_engines_tensor_ir.so.9, which cuDNN 9.20 loads by name: cuDNN fails with "
    "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, or takes the copy of another release that the system loader "
    "finds elsewhere";
constexpr const char* cudnn_cu13_9_20_0_48_fix =
    "pip install \"nvidia-cudnn-cu13!=9.20.0.48\" (every other release has the file)";

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
