// A candidate file that loaded and is being checked: what the loader and a library's hooks
// (descriptor.hpp) share while deciding whether to use it.
#pragma once

#include <string>
#include <vector>

#include "state.hpp"

namespace cushim {
namespace detail {
namespace {

struct candidate_check {
  library_state& lib;
  const std::string& path;
  platform::library_handle handle;
  long version = 0;                                // once read
  std::string detail;                              // what was found; why it is refused
  std::vector<platform::library_handle> preloads;  // loaded for this candidate; released when it is refused
  bool part_unusable = false;                      // refused because a required sub-library is unusable
};

}  // namespace
}  // namespace detail
}  // namespace cushim
