// The part of <dlfcn.h> the shared tests use, on Windows: finding a DLL already loaded and a
// symbol in it, and loading one by absolute path.
#pragma once

#include <cushim/detail/platform/platform.hpp>

#define RTLD_NOW 2
#define RTLD_NOLOAD 4

// With RTLD_NOLOAD the module already loaded under this path, or null; otherwise the DLL loaded
// by its absolute path the way cushim loads (its dependencies beside it).
inline void* dlopen(const char* path, int flags) {
  if (flags & RTLD_NOLOAD) return ::GetModuleHandleW(cushim::detail::platform::widen(path).c_str());
  return cushim::detail::platform::load_library(path).handle;
}

inline void* dlsym(void* handle, const char* name) {
  return reinterpret_cast<void*>(::GetProcAddress(static_cast<HMODULE>(handle), name));
}

inline int dlclose(void*) { return 0; }  // GetModuleHandleW took no reference
