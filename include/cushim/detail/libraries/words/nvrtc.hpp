// What NVRTC's hook (nvrtc_hooks.hpp) says of the builtins library NVRTC loads by name, and the
// problem it records when they are unusable.
#pragma once

#include <string>
#include <vector>

#include "../../search/words/dependencies.hpp"
#include "../../types/status_types.hpp"
#include "../../platform/os_texts.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

// No copy of the builtins beside NVRTC (`nvrtc_path`) nor where its search looks (`searched`).
inline std::string builtins_not_found(const std::string& nvrtc_path, const std::vector<searched_place>& searched) {
  return "it is not beside " + nvrtc_path +
         ", and NVRTC's load by name would not find it (looked in: " + places_text(searched) + ")";
}

}  // namespace words

// The problems its hook records.
namespace problems_of {

// as text, `major` its CUDA major, `nvrtc_path` the copy in use.
inline problem builtins_unusable(const sublibrary& builtins, const std::string& version, const std::string& major,
                                 const std::string& nvrtc_path) {
  return {error_code::ok,
          false,
          "NVRTC loads " + builtins.file_name + " by name when it compiles, and would not get a usable copy",
          builtins.path,
          builtins.problem + "; nvrtcCompileProgram fails with NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
          "install NVRTC " + version + " complete (the CUDA " + major +
              " toolkit, or the pip package nvidia-cuda-nvrtc-cu" + major + "), with " + builtins.file_name +
              " beside " + nvrtc_path + " or in a folder of " + platform::system_search_variable};
}

}  // namespace problems_of
}  // namespace
}  // namespace detail
}  // namespace cushim
