// cuDNN's own sub-libraries: their names per major, which one is the root, and the version
// encoding they share with cudnnGetVersion().
#pragma once

#include <string>
#include <vector>

#include "../platform/os.hpp"
#include "../files/versions.hpp"
#include CUSHIM_OS_PATHS

namespace cushim {
namespace detail {
namespace {

// What a sub-library is to a program: a table column's functions live in it, or only engines
// cuDNN reaches when an operation runs.
enum class sublibrary_role {
  root,       // every other sub-library and every call needs it
  functions,  // serves the functions of its table column
  engines,    // no table functions: cuDNN loads it when an operation needs its engines
};

struct sublibrary_spec {
  std::string name;  // as in the file name and the tables' sub-library column
  sublibrary_role role;
  const char* version_symbol;  // ELF: a 4-byte 0x00MMmmpp word it exports, or nullptr
  long since = 0;              // the release that brought it (CUDNN_VERSION encoding); 0: all of the major
  bool known = true;           // false: found beside the main library, not in this list
};

inline std::vector<sublibrary_spec> cudnn_sublibrary_specs(int major) {
  using r = sublibrary_role;
  if (major == 8) {
    return {
        {"ops_infer", r::root, "cudnn_ops_infer_version"},      {"ops_train", r::functions, "cudnn_ops_train_version"},
        {"cnn_infer", r::functions, "cudnn_cnn_infer_version"}, {"cnn_train", r::functions, "cudnn_cnn_train_version"},
        {"adv_infer", r::functions, "cudnn_adv_infer_version"}, {"adv_train", r::functions, "cudnn_adv_train_version"}};
  }
  // Of cuDNN 9's sub-libraries only these three export a version word (9.19, checked with nm).
  // engines_tensor_ir came with 9.21 (rules_ml_toolchain#280: "appeared starting from CUDNN
  // 9.21", #298: 9.21 ships its static archive; absent in the 9.20 wheel, pytorch#187824); ext is
  // known from 9.23 on (onnxruntime#28787: both in 9.23, neither in 9.13); 9.24 loads both by
  // bare name (JuliaGPU/CUDA.jl#3205). Each is expected from that release on, listed whenever found.
  return {{"graph", r::root, "cudnn_graph_version"},
          {"ops", r::functions, "cudnn_ops_infer_version"},
          {"cnn", r::functions, nullptr},
          {"adv", r::functions, "cudnn_adv_infer_version"},
          {"heuristic", r::engines, nullptr},
          {"engines_precompiled", r::engines, nullptr},
          {"engines_runtime_compiled", r::engines, nullptr},
          {"engines_tensor_ir", r::engines, nullptr, 92100},
          {"ext", r::engines, nullptr, 92300}};
}

// Whether a table column's functions live in the sub-library: false for engines and unknown ones.
inline bool serves_functions(const std::string& name, int major) {
  for (const sublibrary_spec& spec : cudnn_sublibrary_specs(major)) {
    if (spec.name == name) return spec.role != sublibrary_role::engines;
  }
  return false;
}

// libcudnn_cnn.so.9 on Linux, cudnn_cnn64_9.dll on Windows.
inline std::string sublibrary_file_name(const std::string& name, int major) {
  if (platform::windows_names) return "cudnn_" + name + "64_" + std::to_string(major) + ".dll";
  return "libcudnn_" + name + ".so." + std::to_string(major);
}

// What every sub-library's file name starts with.
inline const char* sublibrary_file_prefix() { return platform::windows_names ? "cudnn_" : "libcudnn_"; }

// "cnn" for libcudnn_cnn.so.9 (cudnn_cnn64_9.dll); empty for any other file name.
inline std::string sublibrary_name_of(const std::string& file, int major) {
  const std::string prefix = sublibrary_file_prefix();
  const std::string suffix =
      platform::windows_names ? "64_" + std::to_string(major) + ".dll" : ".so." + std::to_string(major);
  if (file.size() <= prefix.size() + suffix.size() || file.compare(0, prefix.size(), prefix) != 0 ||
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return {};
  }
  return file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
}

// "9.19.0..." -> 91900: the first three dot-separated numbers of `text`; 0 when there are fewer
// or the major is 0.
inline long cudnn_version_from_text(const char* text) {
  long parts[3] = {0, 0, 0};
  if (leading_numbers(text, parts, 3) != 3 || parts[0] <= 0) return 0;
  for (long part : parts) {
    if (part > 99) return 0;
  }
  return encode_cudnn_version(int(parts[0]), int(parts[1]), int(parts[2]));
}

inline std::string cudnn_version_text(long v) { return v ? format_version(decode_cudnn_version(v), true) : "unknown"; }

}  // namespace
}  // namespace detail
}  // namespace cushim
