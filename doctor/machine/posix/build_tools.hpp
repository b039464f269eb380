// Linux: the host compiler is whatever c++ on PATH is (the distribution's g++); no installer
// records compilers, so none is listed as installed beside it.
#pragma once

#include <string>
#include <vector>

#include "../context.hpp"
#include "../host_compiler.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

constexpr const char* compiler_file = "c++";

inline std::vector<discovery::host_compiler> installed_host_compilers(const discovery::context&,
                                                                      std::vector<std::string>&) {
  return {};
}

// Its version would have to be asked of it, by running it: never done.
inline std::string compiler_version_of(const std::string&) { return {}; }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
