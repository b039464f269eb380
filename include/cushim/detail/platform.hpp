// The platform layer: one small interface, implemented with dlopen (platform_posix.hpp) or
// LoadLibraryExW (platform_win32.hpp).
#pragma once

#ifdef _WIN32
#include "platform_win32.hpp"
#include "trusted_location_win32.hpp"
#else
#include "platform_posix.hpp"
#endif
