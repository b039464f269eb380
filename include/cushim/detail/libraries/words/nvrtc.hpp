// What NVRTC's hook (nvrtc_hooks.hpp) says of the builtins library NVRTC loads by name.
#pragma once

#include <string>
#include <vector>

#include "../../search/words/dependencies.hpp"

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
}  // namespace
}  // namespace detail
}  // namespace cushim
