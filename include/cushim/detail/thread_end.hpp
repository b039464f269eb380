// A thread ended by pthread_cancel or pthread_exit unwinds its stack with an exception that every
// catch (...) must let through: swallowed, glibc aborts the process ("FATAL: exception not
// rethrown"). Where cushim catches everything, it lets that one pass first: catch (thread_end&)
// { ...; throw; }. libstdc++ names it abi::__forced_unwind; libc++ and MSVC never hand it to a
// catch, so they need no such clause (CUSHIM_HAS_THREAD_END is then undefined).
#pragma once

#if defined(__cpp_exceptions) && defined(__GLIBCXX__)
#include <cxxabi.h>
#define CUSHIM_HAS_THREAD_END 1

namespace cushim {
namespace detail {
namespace {

using thread_end = abi::__forced_unwind;

}  // namespace
}  // namespace detail
}  // namespace cushim
#endif
