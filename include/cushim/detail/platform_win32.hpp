// The Windows side of the platform layer: files, folders, the process's own paths, LoadLibraryExW.
// Paths are UTF-8 in and out; every call into Windows uses the wide-character API.
#pragma once

#ifndef NOMINMAX
#define NOMINMAX
#define CUSHIM_DEFINED_NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#define CUSHIM_DEFINED_WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#ifdef CUSHIM_DEFINED_NOMINMAX
#undef NOMINMAX
#undef CUSHIM_DEFINED_NOMINMAX
#endif
#ifdef CUSHIM_DEFINED_WIN32_LEAN_AND_MEAN
#undef WIN32_LEAN_AND_MEAN
#undef CUSHIM_DEFINED_WIN32_LEAN_AND_MEAN
#endif

#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <vector>

#include "byte_source.hpp"

namespace cushim {
namespace detail {
namespace platform {

using library_handle = HMODULE;
using any_function = void (*)();

enum class file_state { regular, absent, folder_absent, not_a_file, unreadable };

struct file_check {
  file_state state;
  std::string detail;
};

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

// What a loader error code means for a DLL, built from the code (Wine's texts differ from Windows').
inline std::string load_error_text(DWORD code) {
  std::string meaning;
  switch (code) {
    case ERROR_MOD_NOT_FOUND: meaning = "ERROR_MOD_NOT_FOUND: the file or a DLL it needs was not found"; break;
    case ERROR_PROC_NOT_FOUND:
      meaning = "ERROR_PROC_NOT_FOUND: a DLL it needs lacks a function it imports (another version)";
      break;
    case ERROR_BAD_EXE_FORMAT:
      meaning = "ERROR_BAD_EXE_FORMAT: not a DLL for this process (another architecture, or a damaged file)";
      break;
    case ERROR_DLL_INIT_FAILED: meaning = "ERROR_DLL_INIT_FAILED: its DllMain (initialization) failed"; break;
    case ERROR_COMMITMENT_LIMIT:
      meaning = "ERROR_COMMITMENT_LIMIT: the paging file is too small to map it (raise the page file size)";
      break;
    case ERROR_INVALID_PARAMETER: meaning = "ERROR_INVALID_PARAMETER: the path is not absolute"; break;
    case ERROR_ACCESS_DENIED: meaning = "ERROR_ACCESS_DENIED: this process may not read or map the file"; break;
    default: meaning = system_message(code); break;
  }
  return "error " + std::to_string(code) + (meaning.empty() ? "" : " (" + meaning + ")");
}

inline std::string file_error_text(DWORD code) {
  std::string text = system_message(code);
  return "error " + std::to_string(code) + (text.empty() ? "" : " (" + text + ")");
}

inline HANDLE open_for_reading(const std::string& path) {
  return ::CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                       nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
}

inline bool is_folder(const std::string& path) {
  DWORD attributes = ::GetFileAttributesW(widen(path).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
}

inline std::string parent_of(const std::string& path) {
  std::size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Attributes only; the file is opened (for reading, never executed) to prove it is readable.
inline file_check check_file(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data;
  if (!::GetFileAttributesExW(widen(path).c_str(), GetFileExInfoStandard, &data)) {
    DWORD err = ::GetLastError();
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) {
      std::string dir = parent_of(path);
      if (err == ERROR_PATH_NOT_FOUND || (!dir.empty() && !is_folder(dir))) {
        return {file_state::folder_absent, "folder does not exist"};
      }
      return {file_state::absent, "no such file"};
    }
    return {file_state::unreadable, file_error_text(err)};
  }
  if (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return {file_state::not_a_file, "a folder, not a file"};
  HANDLE h = open_for_reading(path);
  if (h == INVALID_HANDLE_VALUE) return {file_state::unreadable, file_error_text(::GetLastError())};
  DWORD type = ::GetFileType(h);
  ::CloseHandle(h);
  if (type != FILE_TYPE_DISK) return {file_state::not_a_file, "not a regular file (a device or pipe)"};
  return {file_state::regular, {}};
}

// A file opened for bounded reads at offsets; only disk files are kept open.
class file_source : public byte_source {
 public:
  explicit file_source(const std::string& path) {
    handle_ = open_for_reading(path);
    if (handle_ == INVALID_HANDLE_VALUE) {
      error_ = file_error_text(::GetLastError());
      return;
    }
    LARGE_INTEGER size;
    if (::GetFileType(handle_) != FILE_TYPE_DISK || !::GetFileSizeEx(handle_, &size)) {
      error_ = "not a regular file";
      ::CloseHandle(handle_);
      handle_ = INVALID_HANDLE_VALUE;
      return;
    }
    size_ = std::uint64_t(size.QuadPart);
  }
  ~file_source() override {
    if (handle_ != INVALID_HANDLE_VALUE) ::CloseHandle(handle_);
  }
  file_source(const file_source&) = delete;
  file_source& operator=(const file_source&) = delete;

  bool ok() const { return handle_ != INVALID_HANDLE_VALUE; }
  const std::string& error() const { return error_; }
  std::uint64_t size() const override { return size_; }
  bool read(std::uint64_t offset, void* out, std::size_t n) const override {
    if (!ok() || offset > size_ || n > size_ - offset) return false;
    char* to = static_cast<char*>(out);
    while (n > 0) {
      OVERLAPPED at{};
      at.Offset = DWORD(offset & 0xFFFFFFFFu);
      at.OffsetHigh = DWORD(offset >> 32);
      DWORD chunk = DWORD(n > (1u << 30) ? (1u << 30) : n), got = 0;
      if (!::ReadFile(handle_, to, chunk, &got, &at) || got == 0) return false;
      to += got;
      offset += got;
      n -= got;
    }
    return true;
  }

 private:
  HANDLE handle_ = INVALID_HANDLE_VALUE;
  std::uint64_t size_ = 0;
  std::string error_;
};

// The file's final path (links resolved, the case as stored), so one file reached by two rules is
// tried once; the full path when the file does not exist.
inline std::string canonical_path(const std::string& path) {
  std::wstring wide = widen(path);
  std::vector<wchar_t> buffer(32768);
  const DWORD capacity = DWORD(buffer.size());
  HANDLE h = ::CreateFileW(wide.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h != INVALID_HANDLE_VALUE) {
    DWORD n = ::GetFinalPathNameByHandleW(h, buffer.data(), capacity, FILE_NAME_NORMALIZED);
    ::CloseHandle(h);
    if (n > 0 && n < capacity) {
      std::wstring final_path(buffer.data(), n);
      if (final_path.compare(0, 8, L"\\\\?\\UNC\\") == 0) return "\\\\" + narrow(final_path.substr(8));
      if (final_path.compare(0, 4, L"\\\\?\\") == 0) return narrow(final_path.substr(4));
      return narrow(final_path);
    }
  }
  DWORD n = ::GetFullPathNameW(wide.c_str(), capacity, buffer.data(), nullptr);
  return n > 0 && n < capacity ? narrow(buffer.data(), n) : path;
}

inline std::vector<std::string> list_folder(const std::string& path) {
  std::vector<std::string> names;
  WIN32_FIND_DATAW found;
  HANDLE h =
      ::FindFirstFileExW(widen(path + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr, 0);
  if (h == INVALID_HANDLE_VALUE) return names;
  do {
    if (found.cFileName[0] != L'.') names.push_back(narrow(found.cFileName, std::wcslen(found.cFileName)));
  } while (::FindNextFileW(h, &found));
  ::FindClose(h);
  return names;
}

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

struct load_result {
  library_handle handle = nullptr;
  std::string error;
  unsigned long code = 0;  // GetLastError()
};

// Loads by path: the DLL's own folder, the application's folder and System32 are searched for its
// dependencies, never the current folder or PATH; a relative path is refused (error 87).
constexpr DWORD absolute_path_flags = LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;
// Loads by bare name: the default DLL folders (the application's folder, System32 and the folders
// the application added with AddDllDirectory).
constexpr DWORD default_dirs_flags = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;

// The system's error dialog off while it lives (a missing DLL must not stop the process on a dialog).
class error_dialogs_off {
 public:
  error_dialogs_off() { ::SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode_); }
  ~error_dialogs_off() { ::SetThreadErrorMode(old_mode_, nullptr); }
  error_dialogs_off(const error_dialogs_off&) = delete;
  error_dialogs_off& operator=(const error_dialogs_off&) = delete;

 private:
  DWORD old_mode_ = 0;
};

// A refused load: the code kept with its meaning.
inline load_result load_failure(DWORD code) {
  return {nullptr, "LoadLibraryExW failed with " + load_error_text(code), code};
}

inline std::string loaded_path_of(library_handle h) { return module_file_name(h); }

// The system loader itself: the default backend. With CUSHIM_USE_BOOST_DLL, platform_boost_dll.hpp
// loads and unloads through Boost.DLL instead, and keeps these for the references find_loaded takes.
namespace native {

inline load_result load_with_flags(const std::string& name, DWORD flags) {
  HMODULE h;
  DWORD err;
  {
    error_dialogs_off quiet;
    h = ::LoadLibraryExW(widen(name).c_str(), nullptr, flags);
    err = ::GetLastError();
  }
  return h ? load_result{h, {}, 0} : load_failure(err);
}

// An absolute path only.
inline load_result load_library(const std::string& absolute_path) {
  return load_with_flags(absolute_path, absolute_path_flags);
}

inline load_result load_from_default_dirs(const std::string& file_name) {
  return load_with_flags(file_name, default_dirs_flags);
}

inline void unload_library(library_handle h) {
  if (h) ::FreeLibrary(h);
}

// A copy already in the process, by base name (case-insensitive); takes a reference, as
// dlopen(RTLD_NOLOAD) does on Linux, which unload_library drops.
inline library_handle find_loaded(const std::string& file_name, std::string& path) {
  HMODULE h = nullptr;
  if (!::GetModuleHandleExW(0, widen(file_name).c_str(), &h)) return nullptr;
  path = module_file_name(h);
  return h;
}

}  // namespace native

#ifndef CUSHIM_USE_BOOST_DLL
using native::find_loaded;
using native::load_from_default_dirs;
using native::load_library;
using native::unload_library;
#else
inline load_result load_library(const std::string& absolute_path);
inline load_result load_from_default_dirs(const std::string& file_name);
inline void unload_library(library_handle h);
inline library_handle find_loaded(const std::string& file_name, std::string& path);
#endif

// The path of a DLL already in the process under this name, without loading it.
inline std::string loaded_copy_path(const std::string& file_name) {
  HMODULE h = nullptr;
  if (!::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, widen(file_name).c_str(), &h)) return {};
  return module_file_name(h);
}

inline any_function find_symbol(library_handle h, const char* name) {
  FARPROC p = ::GetProcAddress(h, name);
  return reinterpret_cast<any_function>(p);
}

}  // namespace platform
}  // namespace detail
}  // namespace cushim
