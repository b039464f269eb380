// Windows: what discovery asks of the file system beyond files.hpp: what a path is, a folder's
// names with the reason when it cannot be listed, whether a file may be executed, the user's
// home folder and the current folder. Nothing is opened but folders.
#pragma once

#include <cwchar>
#include <string>
#include <vector>

#include <cushim/detail/platform/windows/files.hpp>
#include <cushim/detail/platform/windows/unicode.hpp>
#include "../../words/files.hpp"
#include "../path_check.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline path_check check_path(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data;
  if (!::GetFileAttributesExW(widen(path).c_str(), GetFileExInfoStandard, &data)) {
    DWORD err = ::GetLastError();
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND || err == ERROR_INVALID_NAME) {
      return {path_kind::absent, discovery::words::does_not_exist()};
    }
    if (err == ERROR_CANT_RESOLVE_FILENAME) return {path_kind::loop, discovery::words::symbolic_link_loop()};
    return {path_kind::error, file_error_text(err)};
  }
  if (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return {path_kind::folder, {}};
  return {path_kind::file, {}};
}

struct folder_listing {
  std::vector<std::string> names;
  std::string error;
  std::size_t total = 0;
};

inline folder_listing list_names(const std::string& path, std::size_t max) {
  folder_listing listing;
  WIN32_FIND_DATAW found;
  HANDLE h =
      ::FindFirstFileExW(widen(path + "\\*").c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr, 0);
  if (h == INVALID_HANDLE_VALUE) {
    DWORD err = ::GetLastError();
    listing.error = err == ERROR_PATH_NOT_FOUND || err == ERROR_FILE_NOT_FOUND ? discovery::words::does_not_exist()
                                                                               : file_error_text(err);
    return listing;
  }
  do {
    if (std::wcscmp(found.cFileName, L".") == 0 || std::wcscmp(found.cFileName, L"..") == 0) continue;
    if (listing.total++ < max) listing.names.push_back(narrow(found.cFileName, std::wcslen(found.cFileName)));
  } while (::FindNextFileW(h, &found));
  ::FindClose(h);
  return listing;
}

// A file Windows would start for a command name: any regular file (the extension decides).
inline bool is_executable_file(const std::string& path) { return check_path(path).kind == path_kind::file; }

// Windows has no password database; USERPROFILE is the home folder.
inline std::string password_home() { return {}; }

// The folder this process runs in, from Windows itself: cmd.exe and PowerShell set no PWD, and the
// one MSYS2's and Git's shells set is a Unix path (/c/Users/...).
inline std::string process_current_folder(const char*) {
  DWORD n = ::GetCurrentDirectoryW(0, nullptr);
  std::wstring folder(n, L'\0');
  n = n ? ::GetCurrentDirectoryW(n, &folder[0]) : 0;
  folder.resize(n);
  if (folder.size() > 3 && folder.back() == L'\\') folder.pop_back();  // "C:\" keeps its separator
  return narrow(folder.data(), folder.size());
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
