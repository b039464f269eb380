// The one place the doctor picks its platform half: machine/ and stacks/ hold posix/ and windows/
// files of the same names with the same functions (as cushim's detail/os.hpp does for the loader).
#pragma once

#ifdef _WIN32
#define CUSHIM_DOCTOR_OS_FILES "windows/files.hpp"
#define CUSHIM_DOCTOR_OS_LAYOUT "windows/layout.hpp"
#define CUSHIM_DOCTOR_OS_FRAMEWORK_LOADER "windows/framework_loader.hpp"
#else
#define CUSHIM_DOCTOR_OS_FILES "posix/files.hpp"
#define CUSHIM_DOCTOR_OS_LAYOUT "posix/layout.hpp"
#define CUSHIM_DOCTOR_OS_FRAMEWORK_LOADER "posix/framework_loader.hpp"
#endif
