// Windows: loading, finding and unloading DLLs with the system loader (LoadLibraryExW).
#pragma once

#include <string>
#include <vector>

#include "../platform_types.hpp"
#include "../words/dynamic_library.hpp"
#include "../words/files.hpp"

#include "system.hpp"
#include "unicode.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

using library_handle = HMODULE;
using any_function = void (*)();
using load_result = basic_load_result<library_handle>;

// Windows has no fork (fork_gate.hpp): no lock to hold across one.
inline void dl_lock_for_fork() {}
inline void dl_unlock_after_fork() {}
inline void dl_lock_reset_in_child() {}

// What a loader error code means for a DLL, built from the code (Wine's texts differ from Windows').
inline std::string load_error_text(DWORD code) {
  const char* meaning = nullptr;
  switch (code) {
    case ERROR_MOD_NOT_FOUND: meaning = words::mod_not_found; break;
    case ERROR_PROC_NOT_FOUND: meaning = words::proc_not_found; break;
    case ERROR_BAD_EXE_FORMAT: meaning = words::bad_exe_format; break;
    case ERROR_DLL_INIT_FAILED: meaning = words::dll_init_failed; break;
    case ERROR_COMMITMENT_LIMIT: meaning = words::commitment_limit; break;
    case ERROR_INVALID_PARAMETER: meaning = words::load_path_not_absolute; break;
    case ERROR_ACCESS_DENIED: meaning = words::load_access_denied; break;
    default: return words::error_code_text(code, system_message(code));
  }
  return words::error_code_text(code, meaning);
}

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
  return {nullptr, "LoadLibraryExW failed with " + load_error_text(code), code == ERROR_MOD_NOT_FOUND, code};
}

inline std::string loaded_path_of(library_handle h) { return module_file_name(h); }

// The pin (file_pin) denies renames and writes from before the load until after it, so the file the
// loader maps is the one held: nothing to compare, and no FIFO can be put at its path meanwhile.
struct mapped_bytes {
  const void* at = nullptr;
  std::size_t size = 0;
};
inline mapped_bytes mapped_file_start(library_handle) { return {}; }
class load_watch {
 public:
  load_watch(const std::string&, bool& interrupted) { interrupted = false; }
};

// The system loader itself: the default backend. With CUSHIM_USE_BOOST_DLL, boost_dll_backend.hpp
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
  return h ? load_result{h, {}, false, 0} : load_failure(err);
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

// The modules that import `name`: not worked out on Windows (it would take every module's import
// table read from its file); the explanation then says less.
inline std::vector<std::string> modules_needing(const std::string&) { return {}; }

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
}  // namespace
}  // namespace detail
}  // namespace cushim
