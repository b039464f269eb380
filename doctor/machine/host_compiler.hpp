// A C++ compiler a source build can host nvcc with, as its installer records it: what the
// platform halves of build_tools.hpp find and words/build.hpp describes.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// A C++ compiler installed where its installer records it (Windows: a Visual Studio instance).
struct host_compiler {
  std::string name;              // "Visual Studio Build Tools 2022"
  std::string version;           // "17.9.34622.214"
  std::string root;              // its installation folder
  std::string compiler;          // its newest cl.exe; empty without the C++ tools
  std::string compiler_version;  // "19.39.33523"
};

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
