// trusted_dirs_only on Windows: a library may be used only when neither it nor its folder lets
// anyone but the system, the administrators, TrustedInstaller and this user write to it (or
// change who may), read from their access control lists.
#pragma once

#include <aclapi.h>
#include <sddl.h>

#include <string>

#include "../words/trusted_location.hpp"
#include "files.hpp"

#ifdef _MSC_VER
#pragma comment(lib, "advapi32.lib")
#endif

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The rights that let someone replace a file, or put a new one into a folder.
constexpr DWORD file_write_rights =
    FILE_WRITE_DATA | FILE_APPEND_DATA | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;
constexpr DWORD folder_write_rights =
    FILE_ADD_FILE | FILE_DELETE_CHILD | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;

// "BUILTIN\Users (S-1-5-32-545)", or the SID alone when it has no name here.
inline std::string account_text(PSID sid) {
  std::string text;
  LPWSTR sid_text = nullptr;
  if (::ConvertSidToStringSidW(sid, &sid_text)) {
    text = narrow(sid_text, std::wcslen(sid_text));
    ::LocalFree(sid_text);
  }
  wchar_t name[256], domain[256];
  DWORD name_size = 256, domain_size = 256;
  SID_NAME_USE use;
  if (!::LookupAccountSidW(nullptr, sid, name, &name_size, domain, &domain_size, &use)) return text;
  std::string account = narrow(name, std::wcslen(name));
  if (domain[0]) account = narrow(domain, std::wcslen(domain)) + "\\" + account;
  return account + (text.empty() ? "" : " (" + text + ")");
}

inline bool is_current_user(PSID sid) {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return false;
  alignas(TOKEN_USER) unsigned char buffer[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD size = 0;
  bool same = ::GetTokenInformation(token, TokenUser, buffer, sizeof buffer, &size) &&
              ::EqualSid(reinterpret_cast<TOKEN_USER*>(buffer)->User.Sid, sid);
  ::CloseHandle(token);
  return same;
}

inline bool is_trusted_account(PSID sid) {
  if (::IsWellKnownSid(sid, WinLocalSystemSid) || ::IsWellKnownSid(sid, WinBuiltinAdministratorsSid)) return true;
  PSID installer = nullptr;  // NT SERVICE\TrustedInstaller, which owns the system's files
  if (::ConvertStringSidToSidW(L"S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464", &installer)) {
    bool same = ::EqualSid(installer, sid);
    ::LocalFree(installer);
    if (same) return true;
  }
  return is_current_user(sid);
}

// False, with who may write what in `why`, when `path` (a file or folder) is not trusted.
inline bool trusted_object(const std::string& path, DWORD write_rights, std::string& why) {
  PSID owner = nullptr;
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  DWORD err = ::GetNamedSecurityInfoW(widen(path).c_str(), SE_FILE_OBJECT,
                                      OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner, nullptr, &dacl,
                                      nullptr, &descriptor);
  if (err != ERROR_SUCCESS) {
    why = words::permissions_unreadable(path, file_error_text(err));
    return false;
  }
  bool trusted = true;
  if (owner && !is_trusted_account(owner)) {
    why = words::owned_by(path, account_text(owner));
    trusted = false;
  } else if (!dacl) {
    why = words::no_access_control_list(path);
    trusted = false;
  }
  for (DWORD i = 0; trusted && dacl && i < dacl->AceCount; ++i) {
    void* ace = nullptr;
    if (!::GetAce(dacl, i, &ace)) continue;
    const ACE_HEADER* header = static_cast<const ACE_HEADER*>(ace);
    if (header->AceType != ACCESS_ALLOWED_ACE_TYPE || (header->AceFlags & INHERIT_ONLY_ACE)) continue;
    const ACCESS_ALLOWED_ACE* allowed = static_cast<const ACCESS_ALLOWED_ACE*>(ace);
    PSID sid = const_cast<DWORD*>(&allowed->SidStart);
    if (!(allowed->Mask & write_rights) || is_trusted_account(sid)) continue;
    why = words::writable_by(path, account_text(sid));
    trusted = false;
  }
  ::LocalFree(descriptor);
  return trusted;
}

// For trusted_dirs_only: the folder first (who may add files to it), then the file.
inline bool trusted_location(const std::string& path, std::string& why) {
  std::size_t slash = path.find_last_of("/\\");
  std::string folder = slash == std::string::npos ? std::string() : path.substr(0, slash);
  if (!folder.empty() && !trusted_object(folder, folder_write_rights, why)) return false;
  return trusted_object(path, file_write_rights, why);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
