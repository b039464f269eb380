// The platform layer's services: files, the environment, the process, the system loader and the
// trust check, from platform/posix/ or platform/windows/ (os.hpp chooses). With CUSHIM_USE_BOOST_DLL,
// libraries are loaded through boost::dll::shared_library instead (boost_dll_backend.hpp, on top
// of the native layer).
#pragma once

#include "os.hpp"
#include CUSHIM_OS_PATHS
#include CUSHIM_OS_FILES
#include CUSHIM_OS_DYNAMIC_LIBRARY
#include CUSHIM_OS_SYSTEM
#include CUSHIM_OS_TRUSTED_LOCATION

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The loads go through the system loader itself (native), or through Boost.DLL.
#ifndef CUSHIM_USE_BOOST_DLL
using native::find_loaded;
using native::load_from_default_dirs;
using native::load_library;
using native::unload_library;
#else
inline load_result load_library(const std::string& absolute_path);
inline load_result load_from_default_dirs(const std::string& file_name);
inline void unload_library(library_handle h);
inline library_handle find_loaded(const std::string& file_name, std::string& path);
#endif

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim

#ifdef CUSHIM_USE_BOOST_DLL
#include "boost_dll_backend.hpp"
#endif
