// The Windows pieces on their own: file names, path lists, the wide-character platform layer,
// loader error codes, and the PE checks on the fixture DLLs (nothing here goes through a stub).
#include <doctest/doctest.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <algorithm>
#include <string>

#include "support/win_probe.hpp"

using namespace cushim::detail;

TEST_CASE("library file names follow the compiled majors") {
  CHECK(compiled_file_name(cudnn_descriptor) == "cudnn64_" + std::to_string(CUDNN_MAJOR) + ".dll");
  CHECK(file_name_for_major(cudnn_descriptor, 8) == std::string("cudnn64_8.dll"));
  CHECK(file_name_for_major(cudart_descriptor, 11) == std::string("cudart64_110.dll"));
  CHECK(file_name_for_major(cudart_descriptor, 12) == std::string("cudart64_12.dll"));
  CHECK(file_name_for_major(cudart_descriptor, 13) == std::string("cudart64_13.dll"));
  CHECK(major_of_file(cudart_descriptor, "cudart64_110.dll") == 11);
  CHECK(major_of_file(cudart_descriptor, "cudart64_13.dll") == 13);
  CHECK(platform::driver_file_name() == std::string("nvcuda.dll"));
  CHECK(file_name_for_major(cublas_descriptor, 12) == std::string("cublas64_12.dll"));
  CHECK(file_name_for_major(cublaslt_descriptor, 13) == std::string("cublasLt64_13.dll"));
  CHECK(file_name_for_major(nvrtc_descriptor, 11) == std::string("nvrtc64_112_0.dll"));
  CHECK(file_name_for_major(nvrtc_descriptor, 12) == std::string("nvrtc64_120_0.dll"));
  CHECK(file_name_for_major(nvrtc_descriptor, 13) == std::string("nvrtc64_130_0.dll"));
  CHECK(nvrtc_hooks::builtins_file_name(13000) == "nvrtc-builtins64_130.dll");
  CHECK(nvrtc_hooks::builtins_file_name(12040) == "nvrtc-builtins64_124.dll");
  CHECK(compiled_file_name(driver_descriptor) == std::string("nvcuda.dll"));
}

TEST_CASE("PATH-like lists: ';'-separated, quotes stripped, empty and relative entries marked") {
  std::vector<path_entry> e = split_path_list("\"C:\\a b\";;rel\\dir;\\\\server\\share;D:/x");
  REQUIRE(e.size() == 5);
  CHECK(e[0].text == "C:\\a b");
  CHECK(e[0].kind == entry_kind::absolute);
  CHECK(e[1].kind == entry_kind::empty);
  CHECK(e[2].kind == entry_kind::relative);
  CHECK(e[3].kind == entry_kind::absolute);
  CHECK(e[4].kind == entry_kind::absolute);
  CHECK(join_path("C:\\cuda\\bin\\", "cudart64_13.dll") == "C:\\cuda\\bin\\cudart64_13.dll");
  CHECK(join_path("C:\\", "x.dll") == "C:\\x.dll");
}

TEST_CASE("loader errors are decoded from their codes") {
  CHECK(platform::load_error_text(126).rfind("error 126 (ERROR_MOD_NOT_FOUND: ", 0) == 0);
  CHECK(platform::load_error_text(127).rfind("error 127 (ERROR_PROC_NOT_FOUND: ", 0) == 0);
  CHECK(platform::load_error_text(193).rfind("error 193 (ERROR_BAD_EXE_FORMAT: ", 0) == 0);
  CHECK(platform::load_error_text(1114).rfind("error 1114 (ERROR_DLL_INIT_FAILED: ", 0) == 0);
  CHECK(platform::load_error_text(1455).rfind("error 1455 (ERROR_COMMITMENT_LIMIT: ", 0) == 0);
  CHECK(platform::load_error_text(87).rfind("error 87 (ERROR_INVALID_PARAMETER: ", 0) == 0);
}

TEST_CASE("the platform layer: files, folders and loads, with exact codes") {
  win_test::temp_dir tree;
  std::string folder = tree.make_dirs("用户\\café");
  CHECK(platform::narrow(platform::widen(folder)) == folder);
  CHECK(platform::is_folder(folder));
  CHECK(platform::check_file(folder).state == platform::file_state::not_a_file);
  CHECK(platform::check_file(folder + "\\none.dll").state == platform::file_state::absent);
  CHECK(platform::check_file(tree.path("missing\\none.dll")).state == platform::file_state::folder_absent);

  std::string dll = tree.copy(win_test::fixture("cudnn_good", CUSHIM_CUDNN_FILE), "用户\\café\\" CUSHIM_CUDNN_FILE);
  CHECK(platform::check_file(dll).state == platform::file_state::regular);
  CHECK(platform::list_folder(folder) == std::vector<std::string>{CUSHIM_CUDNN_FILE});
  platform::load_result loaded = platform::load_library(dll);
  REQUIRE(loaded.handle != nullptr);
  CHECK(platform::loaded_path_of(loaded.handle) == dll);
  std::string path;
  platform::library_handle again = platform::find_loaded(CUSHIM_CUDNN_FILE, path);
  CHECK(again == loaded.handle);
  CHECK(path == dll);
  bool exported = platform::find_symbol(loaded.handle, "cudnnGetVersion") != nullptr;
  bool missing = platform::find_symbol(loaded.handle, "cudnnNoSuchFunction") == nullptr;
  CHECK(exported);
  CHECK(missing);
  platform::unload_library(again);
  platform::unload_library(loaded.handle);
  CHECK(platform::loaded_copy_path(CUSHIM_CUDNN_FILE).empty());

  CHECK(platform::load_library(folder + "\\none.dll").code == 126);
  CHECK(platform::load_library(CUSHIM_CUDNN_FILE).code == 87);  // relative: refused, never searched
}

TEST_CASE("environment: UTF-8 values, unset versus empty, %VAR% expansion") {
  ::SetEnvironmentVariableW(L"CUSHIM_UNIT_DIR", L"C:\\用户");
  ::SetEnvironmentVariableW(L"CUSHIM_UNIT_EMPTY", L"");
  CHECK(std::string(platform::get_environment("CUSHIM_UNIT_DIR")) == "C:\\用户");
  CHECK(platform::get_environment("CUSHIM_UNIT_UNSET") == nullptr);
  const char* empty = platform::get_environment("CUSHIM_UNIT_EMPTY");
  REQUIRE(empty != nullptr);
  CHECK(*empty == '\0');
  CHECK(platform::expand_environment("%CUSHIM_UNIT_DIR%\\bin") == "C:\\用户\\bin");
  CHECK(platform::expand_environment("%CUSHIM_UNIT_UNSET%\\bin") == "%CUSHIM_UNIT_UNSET%\\bin");
  std::vector<std::string> names = platform::environment_names();
  CHECK(std::find(names.begin(), names.end(), "CUSHIM_UNIT_DIR") != names.end());
}

TEST_CASE("PE checks on the fixture DLLs: version resource, machine, imports") {
  platform::file_source good(win_test::fixture("cudnn_good", CUSHIM_CUDNN_FILE));
  pe_info info = read_pe(good);
  CHECK(info.error == pe_error::none);
  CHECK(info.machine == 0x8664);
  CHECK(info.file_version == std::to_string(CUDNN_MAJOR) + "." + std::to_string(CUDNN_MINOR) + "." +
                                 std::to_string(CUDNN_PATCHLEVEL) + ".0");

  std::string detail;
  CHECK(platform::inspect_file(win_test::fixture("cudnn_x86", CUSHIM_CUDNN_FILE), detail) ==
        cushim::outcome::wrong_architecture);
  CHECK(detail == "a DLL for x86 (32-bit); this process is x64");
  CHECK(platform::is_api_set("api-ms-win-crt-runtime-l1-1-0.dll"));
  CHECK(platform::is_api_set("EXT-MS-win-foo.dll"));
  CHECK_FALSE(platform::is_api_set("zlibwapi.dll"));

  std::string needs = win_test::fixture("cudnn_needs_zlib", CUSHIM_CUDNN_FILE);
  std::vector<missing_dependency> missing = platform::dependency_resolver().missing(needs);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].name == "zlibwapi.dll");
  CHECK(missing[0].needed_by() == needs);
  REQUIRE(missing[0].searched.size() == 3);
  CHECK(words::place_text(missing[0].searched[0]) == parent_dir(needs));
  CHECK(words::place_text(missing[0].searched[2]) == platform::system_folder());

  // A copy on PATH does not count for the imports of a DLL loaded by full path, but it is named.
  std::string zlib_dir = parent_dir(platform::narrow(platform::widen(win_test::fixture("zlibwapi", "zlibwapi.dll"))));
  std::string old_path = platform::get_environment("PATH");
  ::SetEnvironmentVariableW(L"PATH", platform::widen(zlib_dir).c_str());
  missing = platform::dependency_resolver().missing(needs);
  ::SetEnvironmentVariableW(L"PATH", platform::widen(old_path).c_str());
  REQUIRE(missing.size() == 1);
  REQUIRE(missing[0].searched.size() == 4);
  CHECK(words::place_text(missing[0].searched[3]) ==
        join_path(zlib_dir, "zlibwapi.dll") +
            " (on PATH, which Windows does not search for the imports of a DLL loaded by "
            "full path: copy it beside the DLL)");
}

TEST_CASE("versioned folders: newest minor first, other majors left out") {
  win_test::temp_dir tree;
  for (const char* v : {"v13.0", "v13.10", "v13.2", "v12.9", "v13.x"}) tree.make_dirs(v);
  CHECK(versioned_children(tree.path(), "v13.") == std::vector<std::string>{"v13.10", "v13.2", "v13.0"});
}

namespace {

// Grants `account` (a well-known SID) `rights` on `path`, on top of what it has.
bool grant(const std::string& path, WELL_KNOWN_SID_TYPE account, DWORD rights) {
  unsigned char sid[SECURITY_MAX_SID_SIZE];
  DWORD sid_size = sizeof sid;
  if (!::CreateWellKnownSid(account, nullptr, sid, &sid_size)) return false;
  std::wstring wide = platform::widen(path);
  PACL old_dacl = nullptr, new_dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (::GetNamedSecurityInfoW(wide.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr, &old_dacl,
                              nullptr, &descriptor) != ERROR_SUCCESS)
    return false;
  EXPLICIT_ACCESSW access{};
  access.grfAccessPermissions = rights;
  access.grfAccessMode = GRANT_ACCESS;
  access.grfInheritance = NO_INHERITANCE;
  access.Trustee.TrusteeForm = TRUSTEE_IS_SID;
  access.Trustee.ptstrName = reinterpret_cast<LPWSTR>(sid);
  bool ok = ::SetEntriesInAclW(1, &access, old_dacl, &new_dacl) == ERROR_SUCCESS &&
            ::SetNamedSecurityInfoW(&wide[0], SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr, new_dacl,
                                    nullptr) == ERROR_SUCCESS;
  ::LocalFree(new_dacl);
  ::LocalFree(descriptor);
  return ok;
}

}  // namespace

TEST_CASE("trusted_dirs_only: a file or folder other users may write is refused, naming who") {
  win_test::temp_dir tree;
  std::string file = tree.copy(win_test::fixture("cudnn_good", CUSHIM_CUDNN_FILE), "lib\\" CUSHIM_CUDNN_FILE);
  std::string why;
  CHECK(platform::trusted_location(file, why));
  INFO(why);

  REQUIRE(grant(file, WinWorldSid, FILE_GENERIC_WRITE));
  CHECK_FALSE(platform::trusted_location(file, why));
  CHECK(why == file + " is writable by Everyone (S-1-1-0)");

  // Wine keeps a folder's list only as the Unix mode; the build made this folder's 0777.
  std::string open = win_test::fixture("world_writable", CUSHIM_CUDNN_FILE);
  CHECK_FALSE(platform::trusted_location(open, why));
  CHECK(why == open.substr(0, open.find_last_of('/')) + " is writable by Everyone (S-1-1-0)");

  std::string readable = tree.copy(win_test::fixture("cudnn_good", CUSHIM_CUDNN_FILE), "lib\\again.dll");
  REQUIRE(grant(readable, WinBuiltinUsersSid, GENERIC_READ | GENERIC_EXECUTE));  // reading is harmless
  CHECK(platform::trusted_location(readable, why));
}

TEST_CASE("probe_in_child names how a child ended: its exception code, or an exit status that is none") {
  CHECK(platform::exception_name(0xC0000005) == "EXCEPTION_ACCESS_VIOLATION (0xC0000005)");
  CHECK(platform::exception_name(0xC00000FD) == "EXCEPTION_STACK_OVERFLOW (0xC00000FD)");
  CHECK(platform::exception_name(0xC0000409) == "STATUS_STACK_BUFFER_OVERRUN (0xC0000409)");
  CHECK(platform::exception_name(0xC0000135) == "exception 0xC0000135");
  for (unsigned long code : {0xC0000005ul, 0xC0000409ul, 0x80000003ul}) CHECK(platform::is_exception_code(code));
  for (unsigned long code : {0ul, 3ul, 0xFFFFFFFFul, 0xE06D7363ul}) CHECK_FALSE(platform::is_exception_code(code));
}
