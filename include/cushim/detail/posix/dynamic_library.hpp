// Linux: loading, finding and unloading shared libraries with the system loader (dlopen).
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "../platform_types.hpp"

// ThreadSanitizer's annotations, in its builds only (dl_lock_reset_in_child).
#if defined(__SANITIZE_THREAD__)
#define CUSHIM_TSAN_ANNOTATIONS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSHIM_TSAN_ANNOTATIONS 1
#endif
#endif
#ifdef CUSHIM_TSAN_ANNOTATIONS
#include <sanitizer/tsan_interface.h>
#endif

namespace cushim {
namespace detail {
namespace {
namespace platform {

using library_handle = void*;
using any_function = void (*)();
using load_result = basic_load_result<library_handle>;

// cushim's own dlopen/dlsym/dlinfo calls, one at a time: the libraries may load on several
// threads, and glibc's internal lock is invisible to ThreadSanitizer. Recursive, because a
// library's constructor may call back into cushim on the same thread.
inline std::recursive_mutex*& dl_mutex_in_use() {
  static std::recursive_mutex* m = new std::recursive_mutex;  // never destroyed: used at exit
  return m;
}
inline std::recursive_mutex& dl_mutex() { return *dl_mutex_in_use(); }

// Every fork holds it across (fork_gate.hpp). The child takes a new one: glibc's recursive mutex
// knows its owner by thread id, which the child's thread does not keep, so the child could never
// release the old one (a lock_guard of the forking thread that still names it unlocks nothing).
inline void dl_lock_for_fork() { dl_mutex().lock(); }
inline void dl_unlock_after_fork() { dl_mutex().unlock(); }
inline void dl_lock_reset_in_child() {
#ifdef CUSHIM_TSAN_ANNOTATIONS
  // The old one stays held by the forking thread for good; told it is released, ThreadSanitizer no
  // longer sees every lock the child takes as taken inside it (a lock-order cycle with the gate's).
  __tsan_mutex_pre_unlock(dl_mutex_in_use(), 0);
  __tsan_mutex_post_unlock(dl_mutex_in_use(), 0);
#endif
  dl_mutex_in_use() = new std::recursive_mutex;
}

inline std::string loaded_path_of(library_handle h) {
  struct link_map* map = nullptr;
  if (::dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
  return map->l_name;
}

// A loaded object's dynamic section in memory and its string table. ld.so relocates the
// section's addresses in place where it is writable; an address below the load base is not.
struct loaded_dynamic {
  const ElfW(Dyn) * entries = nullptr;
  const char* strings = nullptr;
};

inline loaded_dynamic dynamic_of(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    if (info.dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
    loaded_dynamic d;
    d.entries = reinterpret_cast<const ElfW(Dyn)*>(info.dlpi_addr + info.dlpi_phdr[i].p_vaddr);
    for (const ElfW(Dyn)* e = d.entries; e->d_tag != DT_NULL; ++e) {
      if (e->d_tag != DT_STRTAB) continue;
      ElfW(Addr) strings = e->d_un.d_ptr;
      d.strings = reinterpret_cast<const char*>(strings < info.dlpi_addr ? strings + info.dlpi_addr : strings);
    }
    return d;
  }
  return {};
}

// DT_SONAME of a loaded object, or null.
inline const char* loaded_soname(const dl_phdr_info& info) {
  loaded_dynamic d = dynamic_of(info);
  if (!d.strings) return nullptr;
  for (const ElfW(Dyn)* e = d.entries; e->d_tag != DT_NULL; ++e) {
    if (e->d_tag == DT_SONAME) return d.strings + e->d_un.d_val;
  }
  return nullptr;
}

// The paths of the loaded modules whose DT_NEEDED names `name`, those the system loader loaded it
// for; "" stands for the program itself.
inline std::vector<std::string> modules_needing(const std::string& name) {
  struct search {
    const std::string& name;
    std::vector<std::string> modules;
  } s{name, {}};
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        search& s = *static_cast<search*>(data);
        loaded_dynamic d = dynamic_of(*info);
        if (!d.strings) return 0;
        for (const ElfW(Dyn)* e = d.entries; e->d_tag != DT_NULL; ++e) {
          if (e->d_tag != DT_NEEDED || s.name != d.strings + e->d_un.d_val) continue;
          s.modules.emplace_back(info->dlpi_name ? info->dlpi_name : "");  // "": the program itself
          break;
        }
        return 0;
      },
      &s);
  return s.modules;
}

// The path of a library already in the process whose file name or soname is `name`, from the
// loader's own list: no file is opened and no system call made (dlopen(RTLD_NOLOAD) of a bare
// name searches the folders first).
inline std::string loaded_copy_path(const std::string& name) {
  struct match {
    const std::string& name;
    std::string path;
  } m{name, {}};
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        match& m = *static_cast<match*>(data);
        const char* path = info->dlpi_name;
        if (!path || path[0] != '/') return 0;  // the program itself, the vDSO
        const char* base = std::strrchr(path, '/') + 1;
        const char* soname = m.name == base ? nullptr : loaded_soname(*info);
        if (m.name != base && (!soname || m.name != soname)) return 0;
        m.path = path;
        return 1;
      },
      &m);
  return m.path;
}

// A library in the process: its path and soname (empty when it has none).
struct loaded_object {
  std::string path;
  std::string soname;
};

// Every library in the process loaded from an absolute path, in the loader's order: one walk of
// its list for a resolver that asks about many names.
inline std::vector<loaded_object> loaded_objects() {
  std::vector<loaded_object> objects;
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        const char* path = info->dlpi_name;
        if (!path || path[0] != '/') return 0;  // the program itself, the vDSO
        const char* soname = loaded_soname(*info);
        static_cast<std::vector<loaded_object>*>(data)->push_back({path, soname ? soname : ""});
        return 0;
      },
      &objects);
  return objects;
}

// The system loader itself: the default backend. With CUSHIM_USE_BOOST_DLL, boost_dll_backend.hpp
// loads and unloads through Boost.DLL instead, and keeps these for the references find_loaded takes.
namespace native {

// Always an absolute path, so the system search (and the current directory) is not involved.
// RTLD_NOW: a missing symbol in a dependency fails here, not at some later call.
inline load_result load_library(const std::string& absolute_path) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dlerror();
  library_handle h = ::dlopen(absolute_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h) return {h, {}, false};
  const char* err = ::dlerror();
  return {nullptr, err ? err : "unknown dlopen error", false};
}

// Windows' bare-name load through the default DLL folders; Linux has no such rule.
inline load_result load_from_default_dirs(const std::string&) {
  return {nullptr, "Linux has no default DLL folders", true};
}

inline void unload_library(library_handle h) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  if (h) ::dlclose(h);
}

// A copy already in the process (loaded by the app or another framework), without loading one;
// takes a reference, which unload_library drops.
inline library_handle find_loaded(const std::string& file_name, std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  std::string found = loaded_copy_path(file_name);
  if (found.empty()) return nullptr;
  library_handle h = ::dlopen(found.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h) path = found;
  return h;
}

}  // namespace native

inline any_function find_symbol(library_handle h, const char* name) {
  void* p;
  {
    std::lock_guard<std::recursive_mutex> lock(dl_mutex());
    p = ::dlsym(h, name);
  }
  any_function f;
  static_assert(sizeof f == sizeof p, "function and data pointers differ in size");
  std::memcpy(&f, &p, sizeof f);
  return p ? f : nullptr;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
