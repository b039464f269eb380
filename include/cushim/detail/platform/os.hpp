// The one place the platform is chosen. The posix/ and windows/ folders of a stage (platform/,
// search/, probe/) hold files of the same names that expose the same functions; shared code includes
// them through these names (each a path from a stage folder) and never asks which platform it runs
// on (the model is Boost.DLL's detail/posix and detail/windows).
#pragma once

#ifdef _WIN32
#define CUSHIM_OS_PATHS "../platform/windows/paths.hpp"
#define CUSHIM_OS_FILES "../platform/windows/files.hpp"
#define CUSHIM_OS_SYSTEM "../platform/windows/system.hpp"
#define CUSHIM_OS_DYNAMIC_LIBRARY "../platform/windows/dynamic_library.hpp"
#define CUSHIM_OS_TRUSTED_LOCATION "../platform/windows/trusted_location.hpp"
#define CUSHIM_OS_BINARY_CHECK "../search/windows/binary_check.hpp"
#define CUSHIM_OS_FILE_VERSION "../search/windows/file_version.hpp"
#define CUSHIM_OS_DEPENDENCIES "../search/windows/dependencies.hpp"
#define CUSHIM_OS_SEARCH_RULES "../search/windows/search_rules.hpp"
#define CUSHIM_OS_SUBLIBRARY_FINDER "../search/windows/sublibrary_finder.hpp"
#define CUSHIM_OS_DRIVER_FILES "../search/windows/driver_files.hpp"
#define CUSHIM_OS_TEXTS "../platform/windows/texts.hpp"
#define CUSHIM_OS_CHILD_PROCESS "../probe/windows/child_process.hpp"
#else
#define CUSHIM_OS_PATHS "../platform/posix/paths.hpp"
#define CUSHIM_OS_FILES "../platform/posix/files.hpp"
#define CUSHIM_OS_SYSTEM "../platform/posix/system.hpp"
#define CUSHIM_OS_DYNAMIC_LIBRARY "../platform/posix/dynamic_library.hpp"
#define CUSHIM_OS_TRUSTED_LOCATION "../platform/posix/trusted_location.hpp"
#define CUSHIM_OS_BINARY_CHECK "../search/posix/binary_check.hpp"
#define CUSHIM_OS_FILE_VERSION "../search/posix/file_version.hpp"
#define CUSHIM_OS_DEPENDENCIES "../search/posix/dependencies.hpp"
#define CUSHIM_OS_SEARCH_RULES "../search/posix/search_rules.hpp"
#define CUSHIM_OS_SUBLIBRARY_FINDER "../search/posix/sublibrary_finder.hpp"
#define CUSHIM_OS_DRIVER_FILES "../search/posix/driver_files.hpp"
#define CUSHIM_OS_TEXTS "../platform/posix/texts.hpp"
#define CUSHIM_OS_CHILD_PROCESS "../probe/posix/child_process.hpp"
#endif
