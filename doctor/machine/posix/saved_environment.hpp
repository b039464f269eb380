// Linux: no environment is saved for programs started later in a place a program can read (the
// shells' start-up files are scripts, run by each shell): nothing to compare.
#pragma once

// Included by ../saved_environment.hpp, after discovery::saved_variable.

#include <string>
#include <vector>

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::vector<discovery::saved_variable> saved_variables(std::vector<std::string>&) { return {}; }

inline bool searched_without_path(const std::string&) { return false; }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
