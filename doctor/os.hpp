// The one place the doctor picks its platform half: machine/, inventory/ and stacks/ hold posix/ and windows/
// files of the same names with the same functions (as cushim's detail/platform/os.hpp does for the loader).
#pragma once

#ifdef _WIN32
#define CUSHIM_DOCTOR_OS_FILES "windows/files.hpp"
#define CUSHIM_DOCTOR_OS_LAYOUT "windows/layout.hpp"
#define CUSHIM_DOCTOR_OS_FRAMEWORK_LOADER "windows/framework_loader.hpp"
#define CUSHIM_DOCTOR_OS_SYSTEM_PACKAGES "windows/system_packages.hpp"
#define CUSHIM_DOCTOR_OS_LIBRARY_PLACES "windows/library_places.hpp"
#define CUSHIM_DOCTOR_OS_SAVED_ENVIRONMENT "windows/saved_environment.hpp"
#define CUSHIM_DOCTOR_OS_BUILD_TOOLS "windows/build_tools.hpp"
#define CUSHIM_DOCTOR_OS_CUDNN_IMPORTS "windows/cudnn_imports.hpp"
#else
#define CUSHIM_DOCTOR_OS_FILES "posix/files.hpp"
#define CUSHIM_DOCTOR_OS_LAYOUT "posix/layout.hpp"
#define CUSHIM_DOCTOR_OS_FRAMEWORK_LOADER "posix/framework_loader.hpp"
#define CUSHIM_DOCTOR_OS_SYSTEM_PACKAGES "posix/system_packages.hpp"
#define CUSHIM_DOCTOR_OS_LIBRARY_PLACES "posix/library_places.hpp"
#define CUSHIM_DOCTOR_OS_SAVED_ENVIRONMENT "posix/saved_environment.hpp"
#define CUSHIM_DOCTOR_OS_BUILD_TOOLS "posix/build_tools.hpp"
#define CUSHIM_DOCTOR_OS_CUDNN_IMPORTS "posix/cudnn_imports.hpp"
#endif
