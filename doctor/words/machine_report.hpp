// The words of the machine's part of the report (report/machine_text.hpp): its sections' headings
// and the sentences among its lines. The lines' layout and field labels are the renderer's.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

inline std::string toolkits_heading() { return "CUDA toolkits (from their files; nothing was run)"; }
inline std::string pythons_heading() { return "Python environments (from their files; nothing was run)"; }
inline std::string building_heading() { return "Building from source (what nvcc and a build need; nothing was run)"; }
inline std::string machine_heading() { return "The machine as a whole"; }
inline std::string copies_heading() {
  return "NVIDIA libraries on this machine (from their files; nothing was loaded)";
}
inline std::string programs_heading() {
  return "Programs built with cushim, in a plain environment (cushim's search, from the files)";
}

// `places`: where the installers put toolkits.
inline std::string no_toolkits(const char* places) {
  return std::string("none: nothing in ") + places + ", in CUDA_PATH, CUDA_HOME or CUDA_PATH_V*, and no nvcc on PATH";
}

inline std::string used_by_no_stack() { return "used by no stack found"; }
inline std::string other_release_beside(const std::vector<std::string>& mixed) {
  return "sub-libraries of another release beside it: " + joined(mixed);
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
