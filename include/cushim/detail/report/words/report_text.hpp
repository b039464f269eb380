// explain()'s words: the report's heading and the sentences report_text.hpp writes between its
// field labels, from the report's facts. The layout (indents, labels, line ends) stays there.
#pragma once

#include <string>
#include <vector>

#include "../report.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

// "cushim 1.2.3: the CUDA runtime and cuDNN as this process sees them", from the descriptors.
inline std::string explain_heading(const std::vector<report_library>& libraries) {
  std::string text = "cushim " CUSHIM_STRINGIFY(CUSHIM_VERSION_MAJOR) "." CUSHIM_STRINGIFY(
      CUSHIM_VERSION_MINOR) "." CUSHIM_STRINGIFY(CUSHIM_VERSION_PATCH) ": ";
  for (std::size_t i = 0; i < libraries.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == libraries.size() ? " and " : ", ") + std::string(libraries[i].desc->in_sentence);
  }
  return text + " as this process sees them";
}

// The newest CUDA the driver supports, from cuDriverGetVersion (12040: "12.4").
inline std::string driver_supports_cuda(int cuda_version) {
  return "supports CUDA up to " + format_version(decode_cuda_version(cuda_version), false);
}
constexpr const char* driver_not_found = "NVIDIA driver: not found";

// `disabled_by`: the macro that decides whether this build shims the library (CUSHIM_CUBLAS).
inline std::string not_shimmed(const char* disabled_by) {
  return std::string("not shimmed by this build (") + disabled_by + "): the program links it itself";
}
constexpr const char* other_copies_heading = "other copies seen (not loaded):";

// A sub-library cushim loaded by path, which the main library's own by-name search would miss.
inline std::string preloaded_by_cushim(const char* display_name) {
  return std::string("preloaded by cushim: ") + display_name + "'s own search would not find this copy";
}
constexpr const char* sublibrary_not_listed = "not in cushim's list: found beside the main library";

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
