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

// The NEEDED entries of an NVIDIA library cushim shims (cuDNN, the CUDA runtime, cuBLAS, NVRTC, the
// driver) in a program's dynamic section, one line each: empty when it needs none; a complaint
// when readelf lists no NEEDED entry at all (it failed).
inline std::string cuda_libraries_needed(const std::string& program) {
  std::string dynamic = command_output("readelf -d '" + program + "'"), found;
  if (dynamic.find("(NEEDED)") == std::string::npos) return "readelf -d lists no NEEDED entry of " + program;
  std::size_t start = 0;
  while (start < dynamic.size()) {
    std::size_t end = dynamic.find('\n', start);
    if (end == std::string::npos) end = dynamic.size();
    std::string line = dynamic.substr(start, end - start);
    bool cuda = false;
    for (const char* library : {"libcudnn", "libcudart", "libcublas", "libnvrtc", "libcuda."}) {
      cuda = cuda || line.find(library) != std::string::npos;
    }
    if (cuda && line.find("(NEEDED)") != std::string::npos) found += line + "\n";
    start = end + 1;
  }
  return found;
}

// The symbols this test program defines, as `nm --defined-only` lists them, by the names its code
// calls: the symbol version an executable's stubs carry (@@CUSHIM_1, detail/platform/local_binding.hpp) is
// left out.
inline std::string own_defined_symbols() {
  std::string symbols = command_output("nm --defined-only /proc/" + std::to_string(getpid()) + "/exe");
  const std::string version = "@@CUSHIM_1\n";
  for (std::size_t at = symbols.find(version); at != std::string::npos; at = symbols.find(version, at))
    symbols.replace(at, version.size(), "\n");
  return symbols;
}

}  // namespace test_support
