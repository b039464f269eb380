// The shape every words file gives a problem of the machine: cushim::problem under the stable name
// docs/doctor.md lists, a warning (the report shows it as WARNING, with its file, why and fix)
// whose error_code is ok: it is about the machine, not about a library this program loaded.
#pragma once

#include <string>
#include <utility>

#include "../machine/machine.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

inline machine::problem warning(const char* name, std::string what, std::string path, std::string why,
                                std::string fix) {
  return {error_code::ok, false, std::move(what), std::move(path), std::move(why), std::move(fix), name};
}

// A problem told as a note where nobody asked for it (building without --build, headers of this
// doctor alone): what, and what to do.
inline std::string as_note(const machine::problem& p) { return p.what + ": " + p.fix; }

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
