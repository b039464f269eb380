// What the search says of a file it checked before the system loader sees it and found unreadable
// as a library (what the file was expected to be, then the reader's finding, `why`: its sentence
// from files/words), or built for another architecture than this process.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace words {

inline std::string not_a_shared_library(const std::string& why) { return "not a shared library: " + why; }
inline std::string not_a_dll(const std::string& why) { return "not a DLL: " + why; }
// "a 32-bit i386 library; this process is 64-bit x86-64"
inline std::string library_of_other_architecture(int bits, const std::string& machine, int native_bits,
                                                 const std::string& native_machine) {
  return "a " + std::to_string(bits) + "-bit " + machine + " library; this process is " + std::to_string(native_bits) +
         "-bit " + native_machine;
}
// "a DLL for x86 (32-bit); this process is x64"
inline std::string dll_of_other_architecture(const std::string& machine, const std::string& native_machine) {
  return "a DLL for " + machine + "; this process is " + native_machine;
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
