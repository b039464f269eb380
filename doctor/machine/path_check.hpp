// What a path is, as discovery's platform halves (posix/files.hpp, windows/files.hpp) answer it.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace platform {

enum class path_kind { absent, folder, file, other, loop, error };

struct path_check {
  path_kind kind;
  std::string detail;  // for other, loop and error: what it is, or why it could not be looked at
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
