// Windows: no package manager of the system records NVIDIA's DLLs (their installers keep no list
// a file can be traced back to), so a copy outside a toolkit, an environment or a framework is
// shown as copied by hand.
#pragma once

#include <string>
#include <vector>

#include "../packages.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline void read_system_packages(const discovery::context&, discovery::package_records&, std::vector<std::string>&) {}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
