// Library files that are not for this process, for the scenarios that refuse them before the loader
// sees them.
#pragma once

#include <cstdint>
#include <string>

namespace test_support {

// A minimal, well-formed 32-bit i386 shared object: header, PT_LOAD, PT_DYNAMIC with DT_NULL.
inline std::string elf32_i386() {
  std::string f(124, '\0');
  auto put16 = [&](std::size_t at, std::uint16_t v) { f[at] = char(v & 0xff), f[at + 1] = char(v >> 8); };
  auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) f[at + i] = char(v >> (8 * i) & 0xff);
  };
  f[0] = 0x7f, f[1] = 'E', f[2] = 'L', f[3] = 'F', f[4] = 1, f[5] = 1, f[6] = 1;
  put16(16, 3), put16(18, 3), put32(20, 1), put32(28, 52), put16(40, 52), put16(42, 32), put16(44, 2);
  put32(52, 1), put32(56, 0), put32(60, 0), put32(68, 124), put32(72, 124), put32(76, 5), put32(80, 0x1000);
  put32(84, 2), put32(88, 116), put32(92, 116), put32(100, 8), put32(104, 8), put32(108, 6), put32(112, 4);
  return f;
}

}  // namespace test_support
