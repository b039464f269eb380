// The doctor's own executable, which serves probe_in_child's requests on Windows (no fork there):
// options.probe_program.
#pragma once

#ifdef _WIN32
#include <windows.h>

#include <string>
#include <vector>

namespace doctor {

// The UTF-8 path of this executable; empty when Windows does not say.
inline std::string own_program() {
  std::vector<wchar_t> wide(32768);
  DWORD n = ::GetModuleFileNameW(nullptr, wide.data(), DWORD(wide.size()));
  if (n == 0 || n == wide.size()) return {};
  int size = ::WideCharToMultiByte(CP_UTF8, 0, wide.data(), int(n), nullptr, 0, nullptr, nullptr);
  std::string path(std::size_t(size > 0 ? size : 0), '\0');
  if (size > 0) ::WideCharToMultiByte(CP_UTF8, 0, wide.data(), int(n), &path[0], size, nullptr, nullptr);
  return path;
}

}  // namespace doctor
#endif
