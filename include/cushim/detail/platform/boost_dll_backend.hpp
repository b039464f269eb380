// The Boost.DLL loading backend, selected by CUSHIM_USE_BOOST_DLL (defined before including cushim in
// the implementation TU): libraries are loaded and unloaded through boost::dll::shared_library, for
// projects that already use Boost. Header-only: with
// BOOST_DLL_USE_STD_FS (defined here unless the program set it) Boost.DLL uses std::filesystem, so no
// Boost library is linked. The rest of the platform layer (file checks, environment, paths, the
// already-loaded lookup) is the native one, included first.
//
// The contract is the native loader's: the same load flags, nothing throws (the error_code
// overloads), and a refused load is described as precisely: dlerror()'s text on Linux (Boost's own
// error_code there is only "bad file descriptor"), the decoded GetLastError() code on Windows.
// Symbols are looked up natively (dlsym / GetProcAddress, what shared_library::get calls): get()
// reports a missing symbol only by throwing and has() returns only a bool, and the native lookup
// keeps a program built with -fno-exceptions free of boost::throw_exception.
#pragma once

#include "os.hpp"
#include CUSHIM_OS_DYNAMIC_LIBRARY

#ifndef BOOST_DLL_USE_STD_FS
#define BOOST_DLL_USE_STD_FS
#endif
#include <boost/dll/shared_library.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cushim {
namespace detail {
namespace {
namespace platform {

namespace boost_dll {

// One reference cushim holds on a library: a shared_library for each load, none for a reference
// find_loaded took natively. The system counts references per library, so one file loaded twice is
// two entries with the same handle; unload_library drops the newest one of its handle.
struct reference {
  library_handle handle;
  std::shared_ptr<boost::dll::shared_library> library;  // null: a native reference
};

// Every reference cushim holds, under references_mutex(). Never destroyed: libraries in use stay
// loaded at exit, as with the native loader.
inline std::vector<reference>& references() {
  static std::vector<reference>* held = new std::vector<reference>;
  return *held;
}

#ifdef _WIN32
// Held only to read or change the list, never across LoadLibraryExW, FreeLibrary or GetModuleHandleExW:
// those take the loader lock, under which a DLL's initialization may call back into cushim.
inline std::recursive_mutex& references_mutex() {
  static std::recursive_mutex* m = new std::recursive_mutex;  // never destroyed: used at exit
  return *m;
}
#else
// cushim's dl* calls run one at a time (posix/dynamic_library.hpp); Boost's are cushim's too.
inline std::recursive_mutex& references_mutex() { return dl_mutex(); }
#endif

// The newest reference on `handle`, or end().
inline std::vector<reference>::iterator newest_reference(library_handle handle) {
  std::vector<reference>& held = references();
  for (auto it = held.end(); it != held.begin();) {
    if ((--it)->handle == handle) return it;
  }
  return held.end();
}

// The shared_library through which cushim loaded `handle`, or null: a copy find_loaded found, or a
// handle cushim does not hold. The loader's handles are checked with it in the tests.
inline std::shared_ptr<boost::dll::shared_library> library_of(library_handle handle) {
  std::lock_guard<std::recursive_mutex> lock(references_mutex());
  for (const reference& r : references()) {
    if (r.handle == handle && r.library) return r.library;
  }
  return nullptr;
}

inline void hold(library_handle handle, std::shared_ptr<boost::dll::shared_library> library) {
  std::lock_guard<std::recursive_mutex> lock(references_mutex());
  references().push_back({handle, std::move(library)});
}

#ifdef _WIN32
// boost::dll::load_mode names no LOAD_LIBRARY_SEARCH_* flag (on Windows it offers
// dont_resolve_dll_references, load_ignore_code_authz_level and load_with_altered_search_path, the
// last of which cannot be combined with them), but Boost hands a mode's bits to LoadLibraryExW
// unchanged apart from its own append_decorations and search_system_folders bits. So cushim's flags
// (windows/dynamic_library.hpp) go in as a native value, which lies within load_mode::type's range.
// search_system_folders keeps Boost from prefixing a relative name with the current folder, which
// cushim never searches: the name reaches LoadLibraryExW as cushim wrote it, and a relative path is
// refused (error 87) as before. Every name cushim loads ends in ".dll" (Boost appends "." to one
// without an extension, which LoadLibraryExW would otherwise complete with ".dll").
inline load_result load(const std::string& name, DWORD flags) {
  const auto mode = static_cast<boost::dll::load_mode::type>(flags | boost::dll::load_mode::search_system_folders);
  auto library = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code error;
  {
    error_dialogs_off quiet;
    library->load(boost::dll::fs::path(widen(name)), mode, error);
  }
  if (error || !library->is_loaded()) return load_failure(error ? DWORD(error.value()) : DWORD(ERROR_MOD_NOT_FOUND));
  library_handle handle = library->native();
  hold(handle, std::move(library));
  return {handle, {}, false, 0};
}
#else
// RTLD_NOW | RTLD_LOCAL, as the native loader. search_system_folders keeps Boost from turning a name
// without a folder into "./name" (the current folder, which cushim never searches): the path reaches
// dlopen as cushim wrote it, always absolute.
inline load_result load(const std::string& absolute_path) {
  constexpr auto mode =
      static_cast<boost::dll::load_mode::type>(boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local |
                                               boost::dll::load_mode::search_system_folders);
  auto library = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code error;
  std::lock_guard<std::recursive_mutex> lock(references_mutex());
  ::dlerror();
  library->load(boost::dll::fs::path(absolute_path), mode, error);
  if (error || !library->is_loaded()) {
    // After a refused dlopen Boost only reads /proc/self/exe and stats files, so dlerror() still
    // holds the loader's own message.
    const char* text = ::dlerror();
    return {nullptr, text ? text : "Boost.DLL: " + error.message(), false};
  }
  library_handle handle = library->native();
  hold(handle, std::move(library));
  return {handle, {}, false};
}
#endif

}  // namespace boost_dll

#ifdef _WIN32
inline load_result load_library(const std::string& absolute_path) {
  return boost_dll::load(absolute_path, absolute_path_flags);
}

inline load_result load_from_default_dirs(const std::string& file_name) {
  return boost_dll::load(file_name, default_dirs_flags);
}
#else
inline load_result load_library(const std::string& absolute_path) { return boost_dll::load(absolute_path); }

inline load_result load_from_default_dirs(const std::string& file_name) {
  return native::load_from_default_dirs(file_name);
}
#endif

// Drops the newest reference on h: a shared_library's (unloaded with it, unless a caller of
// library_of still holds it), or a native one; a handle cushim does not hold is closed natively.
inline void unload_library(library_handle h) {
  if (!h) return;
  std::shared_ptr<boost::dll::shared_library> library;
  {
    std::lock_guard<std::recursive_mutex> lock(boost_dll::references_mutex());
    auto it = boost_dll::newest_reference(h);
    if (it != boost_dll::references().end()) {
      library = std::move(it->library);
      boost_dll::references().erase(it);
    }
  }
#ifndef _WIN32
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());  // dlclose, one dl* call at a time
#endif
  if (library) {
    library.reset();
  } else {
    native::unload_library(h);
  }
}

// The native lookup; its reference is recorded, so that unload_library drops it and not a load's.
// On Linux the lookup and its record happen under one lock, so no unload on another thread comes
// between them; on Windows GetModuleHandleExW takes the loader lock, which the list's lock must not
// be held across.
inline library_handle find_loaded(const std::string& file_name, std::string& path) {
#ifndef _WIN32
  std::lock_guard<std::recursive_mutex> whole(dl_mutex());
#endif
  library_handle h = native::find_loaded(file_name, path);
  std::lock_guard<std::recursive_mutex> lock(boost_dll::references_mutex());
  if (h) boost_dll::references().push_back({h, nullptr});
  return h;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
