// The ordered list of places to look for a library (docs/search-order.md, "Search order (Linux)"): the rules every
// platform shares, then the platform's own (search_rules.hpp of posix/ or windows/); a library the
// system itself installs (the driver) only where it does (driver_files.hpp). Builds paths only;
// the loader tries them. The explicit override and the already-loaded copy come
// first and are handled there.
#pragma once

#include <vector>

#include "os.hpp"
#include "search_list.hpp"
#include CUSHIM_OS_DRIVER_FILES
#include CUSHIM_OS_SEARCH_RULES

namespace cushim {
namespace detail {
namespace {

inline std::vector<candidate> search_candidates(const library_descriptor& d, const search_inputs& in) {
  if (d.system_only) return platform::system_install_candidates(compiled_file_name(d));
  candidate_list list(compiled_file_name(d));
  add_leading_rules(list, in);
  platform::add_install_rules(list, d, in);
  platform::add_system_rules(list, d);
  return list.take();
}

}  // namespace
}  // namespace detail
}  // namespace cushim
