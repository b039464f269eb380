// Windows: what is at a path (never reading a device or pipe), bounded reads of a file, folders.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../../files/byte_source.hpp"
#include "../platform_types.hpp"
#include "../words/files.hpp"
#include "unicode.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::string file_error_text(DWORD code) { return words::error_code_text(code, system_message(code)); }

inline HANDLE open_for_reading(const std::string& path) {
  return ::CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                       nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
}

inline bool is_folder(const std::string& path) {
  DWORD attributes = ::GetFileAttributesW(widen(path).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
}

// What an open handle is: a file on a disk (its identity, size and last write), or not.
inline file_check check_open_file(HANDLE h) {
  if (::GetFileType(h) != FILE_TYPE_DISK) return {file_state::not_a_file, words::not_regular_file_windows, {}};
  BY_HANDLE_FILE_INFORMATION info{};
  if (!::GetFileInformationByHandle(h, &info)) return {file_state::regular, {}, {}};
  return {
      file_state::regular,
      {},
      {info.dwVolumeSerialNumber, (std::uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow},
      (std::uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow,
      std::int64_t((std::uint64_t(info.ftLastWriteTime.dwHighDateTime) << 32) | info.ftLastWriteTime.dwLowDateTime)};
}

// A file about to be loaded, held open from just before the load until after it with no sharing
// but reading: nobody can replace, rename, delete or write it meanwhile. When cushim checked it
// before, it must still be that very file, unchanged.
class file_pin {
 public:
  explicit file_pin(const std::string& path, const file_check* checked = nullptr) {
    handle_ = ::CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
    if (handle_ == INVALID_HANDLE_VALUE) {
      why_ = words::cannot_hold_for_load(file_error_text(::GetLastError()));
      return;
    }
    file_check now = check_open_file(handle_);
    if (now.state != file_state::regular) {
      why_ = words::now_not_regular_file(now.detail);
    } else if (checked &&
               (now.identity != checked->identity || now.size != checked->size || now.modified != checked->modified)) {
      why_ = words::file_replaced;
    }
  }
  ~file_pin() {
    if (handle_ != INVALID_HANDLE_VALUE) ::CloseHandle(handle_);
  }
  file_pin(const file_pin&) = delete;
  file_pin& operator=(const file_pin&) = delete;

  bool unchanged() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  bool same_as_mapped(const void*, std::size_t) const { return true; }  // held: nothing else could be mapped

 private:
  HANDLE handle_ = INVALID_HANDLE_VALUE;
  std::string why_;
};

// Attributes only; the file is opened (for reading, never executed) to prove it is readable.
inline file_check check_file(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data;
  if (!::GetFileAttributesExW(widen(path).c_str(), GetFileExInfoStandard, &data)) {
    DWORD err = ::GetLastError();
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND) {
      std::size_t slash = path.find_last_of("/\\");
      std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash);
      if (err == ERROR_PATH_NOT_FOUND || (!dir.empty() && !is_folder(dir))) {
        return {file_state::folder_absent, words::folder_does_not_exist, {}};
      }
      return {file_state::absent, words::no_such_file, {}};
    }
    return {file_state::unreadable, file_error_text(err), {}};
  }
  if (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return {file_state::not_a_file, words::folder_not_file, {}};
  HANDLE h = open_for_reading(path);
  if (h == INVALID_HANDLE_VALUE) return {file_state::unreadable, file_error_text(::GetLastError()), {}};
  file_check found = check_open_file(h);
  ::CloseHandle(h);
  return found;
}

// check_file answers an absent folder in one call here (ERROR_PATH_NOT_FOUND).
inline file_check check_file_in_listed_folder(const std::string& path) { return check_file(path); }

// The identity of whatever the path names (file or folder); unknown when it names nothing.
inline file_identity identity_of(const std::string& path) {
  HANDLE h = ::CreateFileW(widen(path).c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return {};
  BY_HANDLE_FILE_INFORMATION info{};
  bool ok = ::GetFileInformationByHandle(h, &info);
  ::CloseHandle(h);
  if (!ok) return {};
  return {info.dwVolumeSerialNumber, (std::uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
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
      error_ = words::not_regular_file;
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

// The names in a folder that start with `prefix` (all but the hidden ones when it is empty).
inline std::vector<std::string> list_folder(const std::string& path, std::string_view prefix = {}) {
  std::vector<std::string> names;
  WIN32_FIND_DATAW found;
  HANDLE h =
      ::FindFirstFileExW(widen(path + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr, 0);
  if (h == INVALID_HANDLE_VALUE) return names;
  do {
    if (found.cFileName[0] == L'.') continue;
    std::string name = narrow(found.cFileName, std::wcslen(found.cFileName));
    if (name.compare(0, prefix.size(), prefix) == 0) names.push_back(std::move(name));
  } while (::FindNextFileW(h, &found));
  ::FindClose(h);
  return names;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
