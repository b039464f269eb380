// The one place the platform is chosen. detail/posix/ and detail/windows/ hold files of the same
// names that expose the same functions; shared code includes them through these names and never
// asks which platform it runs on (the model is Boost.DLL's detail/posix and detail/windows).
#pragma once

#ifdef _WIN32
#define CUSHIM_OS_PATHS "windows/paths.hpp"
#define CUSHIM_OS_FILES "windows/files.hpp"
#define CUSHIM_OS_SYSTEM "windows/system.hpp"
#define CUSHIM_OS_DYNAMIC_LIBRARY "windows/dynamic_library.hpp"
#define CUSHIM_OS_TRUSTED_LOCATION "windows/trusted_location.hpp"
#define CUSHIM_OS_BINARY_CHECK "windows/binary_check.hpp"
#define CUSHIM_OS_FILE_VERSION "windows/file_version.hpp"
#define CUSHIM_OS_DEPENDENCIES "windows/dependencies.hpp"
#define CUSHIM_OS_SEARCH_RULES "windows/search_rules.hpp"
#define CUSHIM_OS_SUBLIBRARY_FINDER "windows/sublibrary_finder.hpp"
#define CUSHIM_OS_DRIVER_FILES "windows/driver_files.hpp"
#define CUSHIM_OS_TEXTS "windows/texts.hpp"
#define CUSHIM_OS_CHILD_PROCESS "windows/child_process.hpp"
#else
#define CUSHIM_OS_PATHS "posix/paths.hpp"
#define CUSHIM_OS_FILES "posix/files.hpp"
#define CUSHIM_OS_SYSTEM "posix/system.hpp"
#define CUSHIM_OS_DYNAMIC_LIBRARY "posix/dynamic_library.hpp"
#define CUSHIM_OS_TRUSTED_LOCATION "posix/trusted_location.hpp"
#define CUSHIM_OS_BINARY_CHECK "posix/binary_check.hpp"
#define CUSHIM_OS_FILE_VERSION "posix/file_version.hpp"
#define CUSHIM_OS_DEPENDENCIES "posix/dependencies.hpp"
#define CUSHIM_OS_SEARCH_RULES "posix/search_rules.hpp"
#define CUSHIM_OS_SUBLIBRARY_FINDER "posix/sublibrary_finder.hpp"
#define CUSHIM_OS_DRIVER_FILES "posix/driver_files.hpp"
#define CUSHIM_OS_TEXTS "posix/texts.hpp"
#define CUSHIM_OS_CHILD_PROCESS "posix/child_process.hpp"
#endif
