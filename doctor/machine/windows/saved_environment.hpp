// Windows: the saved variables, read with the registry API: the user's (HKCU\Environment) and the
// machine's (HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment). A value that is
// not a string, or too large to be a variable, is noted and left out.
#pragma once

// Included by ../saved_environment.hpp, after discovery::saved_variable.

#include <cwchar>
#include <string>
#include <vector>

#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/platform/windows/system.hpp>
#include <cushim/detail/platform/windows/unicode.hpp>
#include "../../words/saved_environment.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline std::string registry_type_name(DWORD type) {
  switch (type) {
    case REG_DWORD: return "REG_DWORD";
    case REG_QWORD: return "REG_QWORD";
    case REG_BINARY: return "REG_BINARY";
    case REG_MULTI_SZ: return "REG_MULTI_SZ";
    default: return "registry type " + std::to_string(type);
  }
}

// System32 and the Windows folder: a load by name searches them whatever PATH says.
inline bool searched_without_path(std::string dir) {
  while (dir.size() > 3 && dir.back() == '\\') dir.pop_back();
  return pe_format::same_name_ignoring_case(dir, system_folder()) ||
         pe_format::same_name_ignoring_case(dir, windows_folder());
}

inline std::vector<discovery::saved_variable> saved_variables(std::vector<std::string>& notes) {
  struct key_place {
    HKEY root;
    const wchar_t* path;
    const char* scope;
  };
  const key_place places[] = {{HKEY_CURRENT_USER, L"Environment", "HKCU\\Environment"},
                              {HKEY_LOCAL_MACHINE, L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment",
                               "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"}};
  constexpr DWORD values_limit = 4096, value_bytes_limit = 1u << 20;
  std::vector<discovery::saved_variable> saved;
  for (const key_place& place : places) {
    HKEY key = nullptr;
    if (::RegOpenKeyExW(place.root, place.path, 0, KEY_QUERY_VALUE, &key) != ERROR_SUCCESS) continue;
    for (DWORD i = 0; i < values_limit; ++i) {
      wchar_t name[256];
      DWORD name_length = 256, type = 0, bytes = 0;
      LONG r = ::RegEnumValueW(key, i, name, &name_length, nullptr, &type, nullptr, &bytes);
      if (r == ERROR_NO_MORE_ITEMS) break;
      if (r != ERROR_SUCCESS) continue;  // a name longer than a variable's: not one compared
      std::string variable = narrow(name, name_length);
      if (!discovery::compared_variable(variable)) continue;
      std::string where = std::string(place.scope) + "\\" + variable;
      if (type != REG_SZ && type != REG_EXPAND_SZ) {
        notes.push_back(discovery::words::not_a_string_value(where, registry_type_name(type)));
        continue;
      }
      if (bytes > value_bytes_limit) {
        notes.push_back(discovery::words::too_long_value(where, bytes));
        continue;
      }
      std::vector<wchar_t> data(bytes / sizeof(wchar_t) + 1, L'\0');
      DWORD got = bytes;
      if (::RegQueryValueExW(key, name, nullptr, nullptr, reinterpret_cast<BYTE*>(data.data()), &got) !=
          ERROR_SUCCESS) {
        continue;
      }
      std::size_t length = ::wcsnlen(data.data(), got / sizeof(wchar_t));
      saved.push_back({place.scope, variable, narrow(data.data(), length), type == REG_EXPAND_SZ});
    }
    ::RegCloseKey(key);
  }
  return saved;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
