// What the search says of a file it checked before the system loader sees it and found unreadable
// as a library: what the file was expected to be, then the reader's finding (`why`: its sentence
// from files/words).
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

inline std::string not_a_shared_library(const std::string& why) { return "not a shared library: " + why; }
inline std::string not_a_dll(const std::string& why) { return "not a DLL: " + why; }

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
