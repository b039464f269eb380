// What cuDNN's hooks (cudnn_hooks.hpp) say: of its sub-libraries' releases, of a root sub-library
// that refuses cuDNN, of what its by-name loads serve, and where its build for a CUDA major comes
// from; one named constructor per finding, from the paths, versions and names the hooks found.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

// Where the cuDNN build for one CUDA major comes from (`windows`: NVIDIA's installer has a folder
// per CUDA major).
inline std::string cudnn_build_for_cuda(int cudnn_major, int cuda_major, bool windows) {
  std::string cuda = std::to_string(cuda_major), cudnn = std::to_string(cudnn_major);
  if (windows)
    return "nvidia-cudnn-cu" + cuda + ", or the bin\\" + cuda + ".x folder of NVIDIA's cuDNN " + cudnn + " installer";
  return "nvidia-cudnn-cu" + cuda + " or libcudnn" + cudnn + "-cuda-" + cuda;
}

// A sub-library of another release than the root sub-library (versions as text: "9.1.0").
inline std::string sublibrary_of_other_install(const std::string& path, const std::string& version,
                                               const std::string& root_path, const std::string& root_version) {
  return path + " is cuDNN " + version + ", but " + root_path + " is " + root_version +
         ": sub-libraries of two installations";
}

// A sub-library of another release than the main library reports.
inline std::string sublibrary_of_other_release(const std::string& path, const std::string& version,
                                               const std::string& main_version) {
  return path + " is cuDNN " + version + ", but the main library reports " + main_version +
         ": parts of two installations";
}

// The root sub-library `file_name` is unusable (`why`); `blocked`: cuDNN's load of it would wait on
// a FIFO, else it would fail and cuDNN abort.
inline std::string root_sublibrary_unusable(const std::string& file_name, const std::string& why, bool blocked) {
  return "its root sub-library " + file_name + " is unusable: " + why +
         (!blocked ? ". cuDNN would abort the process at its first call"
                   : ". cudnnGetVersion, cuDNN's first call, would never return");
}

// When cuDNN loads a library by name: what needs cuBLASLt, and NVRTC.
constexpr const char* cublaslt_engines_run =
    "some of its engines run (matrix multiplications, some convolutions, RNNs, attention)";
constexpr const char* nvrtc_engines_run = "its runtime-compiled engines run (fused and generated kernels)";

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
