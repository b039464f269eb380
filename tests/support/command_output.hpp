// Runs a shell command and returns what it printed: for readelf/nm checks of the test binary.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace test_support {

inline std::string command_output(const std::string& command) {
  std::string out;
  if (std::FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    pclose(p);
  }
  return out;
}

// The symbols this test program defines, as `nm --defined-only` lists them.
inline std::string own_defined_symbols() {
  return command_output("nm --defined-only /proc/" + std::to_string(getpid()) + "/exe");
}

}  // namespace test_support
