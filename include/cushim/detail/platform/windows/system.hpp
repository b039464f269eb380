// Windows: the environment, the process's own files and the system's folders.
#pragma once

#include <cwchar>
#include <list>
#include <mutex>
#include <string>
#include <vector>

#include "unicode.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// Windows has no setuid programs: a process's environment is its own user's.
inline bool secure_execution() { return false; }

// Values are kept for the life of the process (one copy per distinct value), so the pointer
// stays valid like getenv's while other threads read the environment too.
inline const char* remember(const std::string& value) {
  static std::mutex* mutex = new std::mutex;
  static std::list<std::string>* values = new std::list<std::string>;
  std::lock_guard<std::mutex> lock(*mutex);
  for (const std::string& v : *values) {
    if (v == value) return v.c_str();
  }
  values->push_back(value);
  return values->back().c_str();
}

// The variable's value in UTF-8, or null when it is not set.
inline const char* get_environment(const char* name) {
  std::wstring wide_name = to_utf16(name);
  DWORD n = ::GetEnvironmentVariableW(wide_name.c_str(), nullptr, 0);
  if (n == 0) return ::GetLastError() == ERROR_ENVVAR_NOT_FOUND ? nullptr : remember("");
  std::wstring value(n, L'\0');
  n = ::GetEnvironmentVariableW(wide_name.c_str(), &value[0], n);
  value.resize(n);
  return remember(narrow(value));
}

// The names of all environment variables (for CUDA_PATH_V<major>_<minor>).
inline std::vector<std::string> environment_names() {
  std::vector<std::string> names;
  wchar_t* block = ::GetEnvironmentStringsW();
  if (!block) return names;
  for (const wchar_t* entry = block; *entry; entry += std::wcslen(entry) + 1) {
    const wchar_t* equals = std::wcschr(entry + 1, L'=');  // "=C:=C:\..." entries start with '='
    if (equals) names.push_back(narrow(entry, std::size_t(equals - entry)));
  }
  ::FreeEnvironmentStringsW(block);
  return names;
}

// %VAR% references expanded as the shell does; an undefined one stays as written.
inline std::string expand_environment(const std::string& text) {
  std::wstring wide = to_utf16(text);
  DWORD n = ::ExpandEnvironmentStringsW(wide.c_str(), nullptr, 0);
  if (n == 0) return text;
  std::wstring out(n, L'\0');
  n = ::ExpandEnvironmentStringsW(wide.c_str(), &out[0], n);
  out.resize(n > 0 ? n - 1 : 0);
  return narrow(out);
}

inline std::string module_file_name(HMODULE module) {
  std::vector<wchar_t> buffer(MAX_PATH);
  for (;;) {
    DWORD n = ::GetModuleFileNameW(module, buffer.data(), DWORD(buffer.size()));
    if (n == 0) return {};
    if (n < buffer.size()) return narrow(buffer.data(), n);
    if (buffer.size() >= 32768) return {};
    buffer.resize(buffer.size() * 2);
  }
}

// Windows has no fork.
inline void on_fork(void (*)(), void (*)(), void (*)()) {}

// Windows has no thread cancellation: nothing to turn off.
class cancellation_off {
 public:
  cancellation_off() {}
  class callers_state {
   public:
    callers_state() {}
  };
};

// Windows has no LD_PRELOAD.
inline bool preloaded_by_environment(const std::string&) { return false; }

inline std::string executable_path() { return module_file_name(nullptr); }

// The file (executable or DLL) that holds the given address.
inline std::string module_path_of(const void* address) {
  HMODULE module = nullptr;
  if (!::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            static_cast<LPCWSTR>(address), &module)) {
    return {};
  }
  return module_file_name(module);
}

// A folder the system names through a Get*DirectoryW call; empty when it fails.
inline std::string system_named_folder(UINT(WINAPI* get)(LPWSTR, UINT)) {
  wchar_t buffer[MAX_PATH];
  UINT n = get(buffer, MAX_PATH);
  return n > 0 && n < MAX_PATH ? narrow(buffer, n) : std::string();
}

inline std::string system_folder() { return system_named_folder(::GetSystemDirectoryW); }

// The Windows folder, which a bare-name LoadLibrary searches after System32.
inline std::string windows_folder() { return system_named_folder(::GetWindowsDirectoryW); }

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
