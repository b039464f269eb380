// The part of <dlfcn.h> the shared tests use, on Windows: finding a DLL already loaded and a
// symbol in it. Nothing here loads a DLL.
#pragma once

#include <cushim/detail/platform.hpp>

#define RTLD_NOW 2
#define RTLD_NOLOAD 4

// Only RTLD_NOLOAD is supported: the module already loaded under this path, or null.
inline void* dlopen(const char* path, int flags) {
  if (!(flags & RTLD_NOLOAD)) return nullptr;
  return ::GetModuleHandleW(cushim::detail::platform::widen(path).c_str());
}

inline void* dlsym(void* handle, const char* name) {
  return reinterpret_cast<void*>(::GetProcAddress(static_cast<HMODULE>(handle), name));
}

inline int dlclose(void*) { return 0; }  // GetModuleHandleW took no reference
