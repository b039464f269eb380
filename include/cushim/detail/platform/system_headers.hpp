// Every standard and system header the implementation uses, included before for_size.hpp's region
// opens, so that its attributes reach cushim's own functions and never a library's (clang refuses
// an attribute on a redeclaration of a function defined before). The test system_headers_listed
// fails when a detail header includes one not named here.
#pragma once

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <functional>
#include <initializer_list>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

// thread_end.hpp: libstdc++'s abi::__forced_unwind (__GLIBCXX__ is known once a standard header is in).
#if defined(__cpp_exceptions) && defined(__GLIBCXX__)
#include <cxxabi.h>
#endif

#ifdef _WIN32
#include "windows/windows_h.hpp"
// after <windows.h>
#include <aclapi.h>
#include <io.h>
#include <sddl.h>
#else
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pwd.h>
#include <pthread.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#endif

// posix/dynamic_library.hpp: ThreadSanitizer's annotations, in its builds only.
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#include <sanitizer/tsan_interface.h>
#endif
#endif

#ifdef CUSHIM_USE_BOOST_DLL
#include <boost/dll/shared_library.hpp>
#endif
