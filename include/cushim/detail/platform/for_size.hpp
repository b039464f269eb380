// cushim's loader, checks and report run once, at a library's first use or when a report is
// asked for; only the stubs' calls are hot. In an optimised build the implementation file
// compiles them for size (GCC: optimize("Os"), clang: minsize), which halves their code and the
// time the compiler spends on it; the exported stubs are one jump either way.
#pragma once

#if defined(__OPTIMIZE__) && !defined(__OPTIMIZE_SIZE__) && !defined(CUSHIM_NO_SIZE_OPTIMIZATION)
#if defined(__clang__)
#define CUSHIM_FOR_SIZE_BEGIN _Pragma("clang attribute push (__attribute__((minsize)), apply_to = function)")
#define CUSHIM_FOR_SIZE_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#define CUSHIM_FOR_SIZE_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"Os\")")
#define CUSHIM_FOR_SIZE_END _Pragma("GCC pop_options")
#endif
#endif
#ifndef CUSHIM_FOR_SIZE_BEGIN
#define CUSHIM_FOR_SIZE_BEGIN
#define CUSHIM_FOR_SIZE_END
#endif
