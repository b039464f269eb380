// Windows words in explanations.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The variable through which the system loader's own search is extended.
constexpr const char* system_search_variable = "PATH";

// What the platform calls a library's list of the libraries it needs.
constexpr const char* dependency_list_name = "import tables";

// How a program links a library at build time: "the import library cudnn.lib".
inline std::string linked_with(const char* link_name) {
  return std::string("the import library ") + link_name + ".lib";
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
