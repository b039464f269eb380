// The platform layer's services: files, the environment, the process, the system loader and the
// trust check, from detail/posix/ or detail/windows/ (os.hpp chooses). With CUSHIM_USE_BOOST_DLL,
// libraries are loaded through boost::dll::shared_library instead (boost_dll_backend.hpp, on top
// of the native layer).
#pragma once

#include "os.hpp"
#include CUSHIM_OS_PATHS
#include CUSHIM_OS_FILES
#include CUSHIM_OS_DYNAMIC_LIBRARY
#include CUSHIM_OS_SYSTEM
#include CUSHIM_OS_TRUSTED_LOCATION
#ifdef CUSHIM_USE_BOOST_DLL
#include "boost_dll_backend.hpp"
#endif
