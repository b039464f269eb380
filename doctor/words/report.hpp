// The words of the report for a person (report/text.hpp) and of the record (report/record.hpp):
// the sentences among their lines. The lines' layout and field labels ("found by", "loads") are
// the renderers'.
#pragma once

#include <string>

namespace doctor {
namespace words {

// --- This doctor's own checks ---

inline std::string own_loads_heading(const std::string& cudnn, const std::string& cuda) {
  return "This doctor's own loads (a program built with cushim and cuDNN " + cudnn + " and CUDA " + cuda +
         " headers), made for real";
}
inline std::string own_checks_heading() { return "cushim-doctor's own checks"; }

inline std::string cudnn_built_for(const std::string& cudnn, const std::string& cuda, const std::string& runtime) {
  return "cuDNN " + cudnn + " was built for CUDA " + cuda + " (cudnnGetCudartVersion); the CUDA runtime in use is " +
         runtime;
}

// `list`: where the dependency list is read from (its dynamic section, its import table).
inline std::string dependencies_heading(const std::string& list) {
  return "Dependencies of the libraries in use (" + list + "), resolved as the system loader would:";
}

// Why the GPU query or cudnnCreate was not tried, when nothing else says.
inline std::string runtime_unavailable() { return "the CUDA runtime is unavailable"; }
inline std::string cudnn_unavailable() { return "cuDNN is unavailable"; }

// --- The record ---

inline std::string record_heading() {
  return "# cushim-doctor record: what a program built with cushim finds on this machine";
}
inline std::string uses_the_gpu(const std::string& cudnn) {
  return "uses the GPU" + (cudnn.empty() ? std::string() : " with " + cudnn);
}
inline std::string does_not_use_the_gpu() { return "does not use the GPU"; }
inline std::string cannot_write_record(const std::string& path, const std::string& error) {
  return "cushim-doctor: cannot write the record to " + path + ": " + error;
}

}  // namespace words
}  // namespace doctor
