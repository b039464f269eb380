// A thread ended by pthread_cancel or pthread_exit unwinds its stack with an exception that every
// catch (...) must let through: swallowed, glibc aborts the process ("FATAL: exception not
// rethrown"). cushim catches everything in one place, catching_all, which lets that one pass.
// libstdc++ names it abi::__forced_unwind; libc++ and MSVC never hand it to a catch.
#pragma once

#if defined(__cpp_exceptions) && defined(__GLIBCXX__)
#include <cxxabi.h>
#define CUSHIM_HAS_THREAD_END 1
#endif

// libstdc++ binds a caught abi::__forced_unwind& to no object, which UBSan's null check reports.
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define CUSHIM_BINDS_NO_OBJECT __attribute__((no_sanitize("null")))
#endif
#endif
#ifndef CUSHIM_BINDS_NO_OBJECT
#define CUSHIM_BINDS_NO_OBJECT
#endif

namespace cushim {
namespace detail {
namespace {

// Runs `work`. When the thread is ending inside it (cancelled, pthread_exit), runs `ending` and
// lets the unwinding go on; when anything else is thrown, gives `other`'s answer instead.
template <class Work, class Ending, class Other>
CUSHIM_BINDS_NO_OBJECT auto catching_all(Work work, Ending ending, Other other) -> decltype(work()) {
#if defined(__cpp_exceptions)
  try {
    return work();
#ifdef CUSHIM_HAS_THREAD_END
  } catch (abi::__forced_unwind&) {
    ending();
    throw;
#endif
  } catch (...) {
    return other();
  }
#else
  (void)ending;
  (void)other;
  return work();
#endif
}

}  // namespace
}  // namespace detail
}  // namespace cushim
