// A place a Python environment may be, and how it was found: what every finder of environments
// (pythons.hpp, ide_interpreters.hpp) hands on, and the prefix an interpreter runs with.
#pragma once

#include <string>

#include "context.hpp"
#include "layout.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// A place an environment may be, and how it was found.
struct environment_candidate {
  std::string path;
  std::string kind;  // "" when the folder itself says (pyvenv.cfg, conda-meta)
  std::string found_by;
  std::string python;  // the interpreter that led here, if one did
};

// The prefix an interpreter runs with: the venv whose pyvenv.cfg is beside its folder (links not
// followed, as Python finds it), else the prefix of the file its links lead to.
inline std::string prefix_for_interpreter(const std::string& interpreter) {
  std::string beside = platform::prefix_of_interpreter(interpreter);
  if (platform::check_path(join_path(beside, "pyvenv.cfg")).kind == platform::path_kind::file) return beside;
  return platform::prefix_of_interpreter(platform::canonical_path(interpreter));
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
