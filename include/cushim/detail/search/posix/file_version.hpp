// Linux: what a library file says about its own version and identity, read without running it.
#pragma once

#include <string>

#include "../descriptor.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// When the version function reports 0: the major of the file name that was searched for
// (libcudart.so.13 is CUDA 13), which is all a Linux library file states about itself.
inline long version_from_file(const std::string&, const library_descriptor& d, std::string& source) {
  source = std::string("file name (") + d.version_function + " reported 0)";
  return d.encode_version(d.compiled_major, 0, 0);
}

// A Linux library names no file of its own beyond its soname, which the search asked for.
inline outcome check_identity(const std::string&, const library_descriptor&, std::string&) { return outcome::loaded; }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
