// The platform layer: one small interface, implemented with dlopen (platform_posix.hpp) or
// LoadLibraryExW (platform_win32.hpp, with trusted_location_win32.hpp); with CUSHIM_USE_BOOST_DLL,
// libraries are loaded through boost::dll::shared_library instead (platform_boost_dll.hpp, on top
// of the native layer).
#pragma once

#if defined(CUSHIM_USE_BOOST_DLL)
#include "platform_boost_dll.hpp"
#elif defined(_WIN32)
#include "platform_win32.hpp"
#else
#include "platform_posix.hpp"
#endif
#ifdef _WIN32
#include "trusted_location_win32.hpp"
#endif
