// UTF-8 in cushim's API, UTF-16 in every call into Windows.
#pragma once

#include <string>

#include "windows_h.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::wstring to_utf16(const std::string& text) {
  if (text.empty()) return {};
  int n = ::MultiByteToWideChar(CP_UTF8, 0, text.data(), int(text.size()), nullptr, 0);
  std::wstring out(std::size_t(n > 0 ? n : 0), L'\0');
  if (n > 0) ::MultiByteToWideChar(CP_UTF8, 0, text.data(), int(text.size()), &out[0], n);
  return out;
}

// A UTF-8 path for the wide API; '/' becomes '\', which LoadLibraryExW requires.
inline std::wstring widen(const std::string& path) {
  std::wstring out = to_utf16(path);
  for (wchar_t& c : out) c = c == L'/' ? L'\\' : c;
  return out;
}

inline std::string narrow(const wchar_t* text, std::size_t length) {
  if (length == 0) return {};
  int n = ::WideCharToMultiByte(CP_UTF8, 0, text, int(length), nullptr, 0, nullptr, nullptr);
  std::string out(std::size_t(n > 0 ? n : 0), '\0');
  if (n > 0) ::WideCharToMultiByte(CP_UTF8, 0, text, int(length), &out[0], n, nullptr, nullptr);
  return out;
}

inline std::string narrow(const std::wstring& text) { return narrow(text.data(), text.size()); }

// The system's text for a code, without the trailing line break; only ever shown beside the code.
inline std::string system_message(DWORD code) {
  wchar_t* buffer = nullptr;
  DWORD n =
      ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                       nullptr, code, 0, reinterpret_cast<wchar_t*>(&buffer), 0, nullptr);
  std::string text = buffer ? narrow(buffer, n) : std::string();
  if (buffer) ::LocalFree(buffer);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
