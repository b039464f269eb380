// What cuDNN's hooks (cudnn_hooks.hpp) say, one named constructor per finding from the paths,
// versions and names they found: of its sub-libraries' releases, of a root sub-library that refuses
// cuDNN, of what its by-name loads serve, where its build for a CUDA major comes from; and the
// problems they record (a sub-library blocked, shadowed or unusable, a library it loads by name
// missing, a build for another CUDA major).
#pragma once

#include <string>

#include "../../types/status_types.hpp"
#include "../../platform/os_texts.hpp"
#include "../../search/descriptor.hpp"
#include "../../search/words/dependencies.hpp"

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

// The problems its hook records.
namespace problems_of {

// cuDNN: the root sub-library's by-name load meets a FIFO; `refused`: the good copy refused for it.
inline problem root_sublibrary_blocked(const std::string& file_name, const std::string& fifo,
                                       const std::string& refused) {
  return {error_code::sublibrary_unusable,
          false,
          "cuDNN's own load of its root sub-library " + file_name + " would wait forever on a FIFO",
          fifo,
          "cuDNN loads it by name at its first call, and the system loader's search for that name meets this FIFO "
          "first: it opens it and waits for a writer; cushim refused " +
              refused + " (a good copy) for it",
          "remove " + fifo + ", or take its folder out of " + platform::system_search_variable};
}

// as text; `example`: the build to install).
inline problem cudnn_built_for_other_cuda(int built, int compiled, const std::string& path, const std::string& reported,
                                          const std::string& example) {
  return {error_code::version_mismatch,
          false,
          "this cuDNN was built for CUDA " + std::to_string(built) + ", but the program was compiled for CUDA " +
              std::to_string(compiled),
          path,
          "cudnnGetCudartVersion() reports " + reported,
          "install the cuDNN build for CUDA " + std::to_string(compiled) + " (for example " + example + ")"};
}

// cuDNN: a library it loads by name (cuBLASLt, NVRTC) when `engines` run, whose search meets a FIFO.
inline problem by_name_load_blocked(const std::string& name, const char* engines, const std::string& fifo) {
  return {error_code::ok,
          false,
          "cuDNN loads " + name + " by name when " + engines + ", and its search would wait forever on a FIFO",
          fifo,
          "the system loader opens the FIFO it meets and waits for a writer: the first "
          "operation that needs those engines would never return",
          "remove " + fifo + ", or take its folder out of " + platform::system_search_variable};
}

// cuDNN: ... whose search would not find it (`searched`: where it looks).
inline problem by_name_load_missing(const std::string& name, const char* engines,
                                    const std::vector<searched_place>& searched, const library_descriptor& needed,
                                    const std::string& cuda_major, const char* pip_package) {
  return {
      error_code::ok,
      false,
      "cuDNN loads " + name + " by name when " + engines + ", and its search would not find it",
      "",
      "looked in: " + words::places_text(searched) + "; those engines fail when first used, the rest of cuDNN works",
      "install " + std::string(needed.display_name) + " for CUDA " + cuda_major + " (the CUDA " + cuda_major +
          " toolkit, or the pip package nvidia-" + pip_package + "-cu" + cuda_major +
          ") in a folder cuDNN's search reaches (" + platform::system_search_variable + ")"};
}

// text of the copy in use, empty when its file does not say).
inline problem sublibrary_shadowed(const sublibrary& sub, const shadowing_copy& copy,
                                   const std::string& in_use_version) {
  std::string what = copy.other_release
                         ? "cuDNN's own search for " + sub.file_name + " would take a copy of another release"
                         : "cuDNN's search for " + sub.file_name + " meets a copy it cannot use";
  std::string why =
      copy.other_release
          ? "it is " + copy.why + " and the copy in use, " + sub.path +
                (!in_use_version.empty() ? ", is cuDNN " + in_use_version : ", is of the main library's install") +
                "; cushim preloads the copy in use, a program without cushim mixes two installations "
                "(CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH)"
          : copy.why + "; cuDNN uses " + (sub.path.empty() ? std::string("no copy") : sub.path) + " instead";
  return {error_code::ok,
          false,
          what,
          copy.path,
          why,
          "remove " + copy.path + ", or replace it with the " + sub.file_name + " of the cuDNN in use"};
}

// `blocked`: its load would wait on a FIFO; `pattern`: its files' name with a wildcard.
inline problem unusable_sublibrary(const sublibrary& sub, bool serves_functions, bool blocked, int major,
                                   const std::string& pattern) {
  std::string effect = serves_functions
                           ? blocked ? "the cuDNN functions it serves return CUDNN_STATUS_NOT_INITIALIZED instead of "
                                       "waiting forever in cuDNN's load of it"
                                     : "the cuDNN functions it serves return CUDNN_STATUS_NOT_INITIALIZED instead of "
                                       "letting cuDNN abort the process"
                       : blocked ? "the first operation that needs its engines would never return (cuDNN's load "
                                   "of it waits forever)"
                                 : "the operations that need its engines fail when they run "
                                   "(CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED or "
                                   "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH)";
  return {error_code::sublibrary_unusable,
          false,
          "cuDNN's sub-library " + sub.file_name + " is unusable; " + effect,
          sub.path,
          sub.problem,
          "install one complete cuDNN " + std::to_string(major) + " (every " + pattern +
              " of one release, in one folder) and remove partial copies"};
}

// cuDNN's CUDA build against the runtime in use (`runtime`: its version as text).
inline problem cudnn_runtime_mismatch(int built, int in_use, const std::string& runtime, const std::string& path) {
  return {
      error_code::version_mismatch,
      false,
      "cuDNN was built for CUDA " + std::to_string(built) + ", but the CUDA runtime in use is " + runtime,
      path,
      "cuDNN and the CUDA runtime must share a major version",
      "use the cuDNN build for CUDA " + std::to_string(in_use) + ", or the CUDA " + std::to_string(built) + " runtime"};
}

}  // namespace problems_of
}  // namespace
}  // namespace detail
}  // namespace cushim
