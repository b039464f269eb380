// What cushim says when the system loader refuses a library: on Windows, what a loader error code
// means for a DLL (cushim's own words: Wine's system texts differ from Windows'); on Linux, why a
// load through Windows' default DLL folders finds nothing.
#pragma once

namespace cushim {
namespace detail {
namespace {
namespace words {

constexpr const char* mod_not_found = "ERROR_MOD_NOT_FOUND: the file or a DLL it needs was not found";
constexpr const char* proc_not_found =
    "ERROR_PROC_NOT_FOUND: a DLL it needs lacks a function it imports (another version)";
constexpr const char* bad_exe_format =
    "ERROR_BAD_EXE_FORMAT: not a DLL for this process (another architecture, or a damaged file)";
constexpr const char* dll_init_failed = "ERROR_DLL_INIT_FAILED: its DllMain (initialization) failed";
constexpr const char* commitment_limit =
    "ERROR_COMMITMENT_LIMIT: the paging file is too small to map it (raise the page file size)";
// LoadLibraryExW with LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR refuses a relative path with this code.
constexpr const char* load_path_not_absolute = "ERROR_INVALID_PARAMETER: the path is not absolute";
constexpr const char* load_access_denied = "ERROR_ACCESS_DENIED: this process may not read or map the file";

constexpr const char* no_default_dll_folders = "Linux has no default DLL folders";

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
