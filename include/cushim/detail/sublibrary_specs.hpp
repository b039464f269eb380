// cuDNN's own sub-libraries: their names per major, which one is the root, and the version
// encoding they share with cudnnGetVersion().
#pragma once

#include <string>
#include <vector>

#include "os.hpp"
#include "versions.hpp"
#include CUSHIM_OS_PATHS

namespace cushim {
namespace detail {

struct sublibrary_spec {
  const char* name;            // as in the file name and the tables' sub-library column
  bool root;                   // every other sub-library and every call needs it
  const char* version_symbol;  // ELF: a 4-byte 0x00MMmmpp word it exports, or nullptr
};

inline std::vector<sublibrary_spec> cudnn_sublibrary_specs(int major) {
  if (major == 8) {
    return {{"ops_infer", true, "cudnn_ops_infer_version"},  {"ops_train", false, "cudnn_ops_train_version"},
            {"cnn_infer", false, "cudnn_cnn_infer_version"}, {"cnn_train", false, "cudnn_cnn_train_version"},
            {"adv_infer", false, "cudnn_adv_infer_version"}, {"adv_train", false, "cudnn_adv_train_version"}};
  }
  // Of cuDNN 9's sub-libraries only these three export a version word (9.19, checked with nm).
  return {{"graph", true, "cudnn_graph_version"},
          {"ops", false, "cudnn_ops_infer_version"},
          {"cnn", false, nullptr},
          {"adv", false, "cudnn_adv_infer_version"},
          {"heuristic", false, nullptr},
          {"engines_precompiled", false, nullptr},
          {"engines_runtime_compiled", false, nullptr}};
}

// libcudnn_cnn.so.9 on Linux, cudnn_cnn64_9.dll on Windows.
inline std::string sublibrary_file_name(const char* name, int major) {
  if (platform::windows_names) return std::string("cudnn_") + name + "64_" + std::to_string(major) + ".dll";
  return std::string("libcudnn_") + name + ".so." + std::to_string(major);
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

}  // namespace detail
}  // namespace cushim
