// <windows.h> without its min/max macros and rarely used parts, whatever the program defined.
#pragma once

#ifndef NOMINMAX
#define NOMINMAX
#define CUSHIM_DEFINED_NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#define CUSHIM_DEFINED_WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#ifdef CUSHIM_DEFINED_NOMINMAX
#undef NOMINMAX
#undef CUSHIM_DEFINED_NOMINMAX
#endif
#ifdef CUSHIM_DEFINED_WIN32_LEAN_AND_MEAN
#undef WIN32_LEAN_AND_MEAN
#undef CUSHIM_DEFINED_WIN32_LEAN_AND_MEAN
#endif
