// Linux: loading, finding and unloading shared libraries with the system loader (dlopen).
#pragma once

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "../platform_types.hpp"
#include "../words/dynamic_library.hpp"

// ThreadSanitizer's annotations, in its builds only (dl_lock_reset_in_child).
#if defined(__SANITIZE_THREAD__)
#define CUSHIM_TSAN_ANNOTATIONS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSHIM_TSAN_ANNOTATIONS 1
#endif
#endif
#ifdef CUSHIM_TSAN_ANNOTATIONS
#include <sanitizer/tsan_interface.h>
#endif

namespace cushim {
namespace detail {
namespace {
namespace platform {

using library_handle = void*;
using any_function = void (*)();
using load_result = basic_load_result<library_handle>;

// cushim's own dlopen/dlsym/dlinfo calls, one at a time: the libraries may load on several
// threads, and glibc's internal lock is invisible to ThreadSanitizer. Recursive, because a
// library's constructor may call back into cushim on the same thread.
inline std::recursive_mutex*& dl_mutex_in_use() {
  static std::recursive_mutex* m = new std::recursive_mutex;  // never destroyed: used at exit
  return m;
}
inline std::recursive_mutex& dl_mutex() { return *dl_mutex_in_use(); }

// Every fork holds it across (fork_gate.hpp). The child takes a new one: glibc's recursive mutex
// knows its owner by thread id, which the child's thread does not keep, so the child could never
// release the old one (a lock_guard of the forking thread that still names it unlocks nothing).
inline void dl_lock_for_fork() { dl_mutex().lock(); }
inline void dl_unlock_after_fork() { dl_mutex().unlock(); }
inline void dl_lock_reset_in_child() {
#ifdef CUSHIM_TSAN_ANNOTATIONS
  // The old one stays held by the forking thread for good; told it is released, ThreadSanitizer no
  // longer sees every lock the child takes as taken inside it (a lock-order cycle with the gate's).
  __tsan_mutex_pre_unlock(dl_mutex_in_use(), 0);
  __tsan_mutex_post_unlock(dl_mutex_in_use(), 0);
#endif
  // A new one in the same place: one allocated beside it would leave the old one unreachable (a leak
  // to LeakSanitizer, whose exit status 1 then hides the child's own).
  new (dl_mutex_in_use()) std::recursive_mutex;
}

inline std::string loaded_path_of(library_handle h) {
  struct link_map* map = nullptr;
  if (::dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
  return map->l_name;
}

// A loaded object's dynamic section in memory and its string table. ld.so relocates the
// section's addresses in place where it is writable; an address below the load base is not.
struct loaded_dynamic {
  const ElfW(Dyn) * entries = nullptr;
  const char* strings = nullptr;
};

inline loaded_dynamic dynamic_of(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    if (info.dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
    loaded_dynamic d;
    d.entries = reinterpret_cast<const ElfW(Dyn)*>(info.dlpi_addr + info.dlpi_phdr[i].p_vaddr);
    for (const ElfW(Dyn)* e = d.entries; e->d_tag != DT_NULL; ++e) {
      if (e->d_tag != DT_STRTAB) continue;
      ElfW(Addr) strings = e->d_un.d_ptr;
      d.strings = reinterpret_cast<const char*>(strings < info.dlpi_addr ? strings + info.dlpi_addr : strings);
    }
    return d;
  }
  return {};
}

// DT_SONAME of a loaded object, or null.
inline const char* loaded_soname(const dl_phdr_info& info) {
  loaded_dynamic d = dynamic_of(info);
  if (!d.strings) return nullptr;
  for (const ElfW(Dyn)* e = d.entries; e->d_tag != DT_NULL; ++e) {
    if (e->d_tag == DT_SONAME) return d.strings + e->d_un.d_val;
  }
  return nullptr;
}

// The paths of the loaded modules whose DT_NEEDED names `name`, those the system loader loaded it
// for; "" stands for the program itself.
inline std::vector<std::string> modules_needing(const std::string& name) {
  struct search {
    const std::string& name;
    std::vector<std::string> modules;
  } s{name, {}};
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        search& s = *static_cast<search*>(data);
        loaded_dynamic d = dynamic_of(*info);
        if (!d.strings) return 0;
        for (const ElfW(Dyn)* e = d.entries; e->d_tag != DT_NULL; ++e) {
          if (e->d_tag != DT_NEEDED || s.name != d.strings + e->d_un.d_val) continue;
          s.modules.emplace_back(info->dlpi_name ? info->dlpi_name : "");  // "": the program itself
          break;
        }
        return 0;
      },
      &s);
  return s.modules;
}

// The path of a library already in the process whose file name or soname is `name`, from the
// loader's own list: no file is opened and no system call made (dlopen(RTLD_NOLOAD) of a bare
// name searches the folders first).
inline std::string loaded_copy_path(const std::string& name) {
  struct match {
    const std::string& name;
    std::string path;
  } m{name, {}};
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        match& m = *static_cast<match*>(data);
        const char* path = info->dlpi_name;
        if (!path || path[0] != '/') return 0;  // the program itself, the vDSO
        const char* base = std::strrchr(path, '/') + 1;
        const char* soname = m.name == base ? nullptr : loaded_soname(*info);
        if (m.name != base && (!soname || m.name != soname)) return 0;
        m.path = path;
        return 1;
      },
      &m);
  return m.path;
}

// A library in the process: its path and soname (empty when it has none).
struct loaded_object {
  std::string path;
  std::string soname;
};

// Every library in the process loaded from an absolute path, in the loader's order: one walk of
// its list for a resolver that asks about many names.
inline std::vector<loaded_object> loaded_objects() {
  std::vector<loaded_object> objects;
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        const char* path = info->dlpi_name;
        if (!path || path[0] != '/') return 0;  // the program itself, the vDSO
        const char* soname = loaded_soname(*info);
        static_cast<std::vector<loaded_object>*>(data)->push_back({path, soname ? soname : ""});
        return 0;
      },
      &objects);
  return objects;
}

// Where a loaded object holds the bytes of its file's start, as the system loader mapped them: its
// ELF header and program headers (which a text relocation never touches), in the segment mapped
// from offset 0. Null when no segment is (file_pin::same_as_mapped compares them with the file).
struct mapped_bytes {
  const void* at = nullptr;
  std::size_t size = 0;
};

inline mapped_bytes mapped_file_start(library_handle h) {
  struct link_map* map = nullptr;
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  if (::dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map) return {};
  struct search {
    const struct link_map* map;
    mapped_bytes found;
  } s{map, {}};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        search& s = *static_cast<search*>(data);
        if (info->dlpi_addr != s.map->l_addr || !info->dlpi_name || std::strcmp(info->dlpi_name, s.map->l_name) != 0) {
          return 0;
        }
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD || segment.p_offset != 0) continue;
          const auto* header = reinterpret_cast<const ElfW(Ehdr)*>(info->dlpi_addr + segment.p_vaddr);
          std::size_t headers = std::size_t(header->e_phoff) + std::size_t(header->e_phnum) * header->e_phentsize;
          if (headers <= segment.p_filesz && headers <= 4096) s.found = {header, headers};
          break;
        }
        return 1;
      },
      &s);
  return s.found;
}

// A load by path watched from a thread of its own. Nobody ever writes to a FIFO that the system
// loader opens (one put at the path since the pin looked, or one where it looks for a library the
// file needs), and the load would never return, holding the loader's lock. Now and then (a load
// that ends within 50 ms, nearly every one, is never looked at) the watcher asks the kernel where
// the loading thread waits; found waiting for a FIFO's writer, it interrupts the wait with a signal,
// so the loader's open fails (EINTR) and the load ends in a refusal. The signal is one ignored by default
// whose disposition is still the default (SIGURG, else SIGWINCH), handled only for that moment and
// unblocked in the loading thread during the load; a program that handles both keeps the wait.
class load_watch {
 public:
  // `interrupted`: set, once the watch is over, to whether it interrupted a wait.
  load_watch(const std::string& path, bool& interrupted)
      : path_(path), loader_(pid_t(::syscall(SYS_gettid))), interrupted_out_(interrupted) {
    if (unwatched_in_this_process) return;
    sigset_t all;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &loader_mask_);  // the watcher takes none of the program's signals
    started_ = ::pthread_create(&watcher_, nullptr, &watch, this) == 0;
    sigset_t during = loader_mask_;
    for (int signal : rescue_signals) ::sigdelset(&during, signal);
    ::pthread_sigmask(SIG_SETMASK, &during, nullptr);
  }
  ~load_watch() {
    if (started_) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        done_ = true;
      }
      done_changed_.notify_all();
      ::pthread_join(watcher_, nullptr);
    }
    interrupted_out_ = interrupted_;
    if (!unwatched_in_this_process) ::pthread_sigmask(SIG_SETMASK, &loader_mask_, nullptr);
  }
  load_watch(const load_watch&) = delete;
  load_watch& operator=(const load_watch&) = delete;

  // A probe_in_child child's loads are not watched: its parent ends it when it takes too long (and a
  // thread started in the child of a process with threads is what ThreadSanitizer refuses).
  static inline bool unwatched_in_this_process = false;

 private:
  static constexpr int rescue_signals[] = {SIGURG, SIGWINCH};

  static void* watch(void* self) {
    static_cast<load_watch*>(self)->watch_loader();
    return nullptr;
  }

  // After 50 ms, then twice as long each time, up to 0.8 s: a load that waits on a FIFO waits for
  // good, and a slow one (a large library from a slow disk, or under valgrind) is seldom looked at.
  void watch_loader() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (int ms = 50; !done_changed_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return done_; });
         ms = std::min(2 * ms, 800)) {
      lock.unlock();
      const bool rescued = waits_on_fifo() && interrupt();
      lock.lock();
      interrupted_ = interrupted_ || rescued;
    }
  }

  // The kernel's name for where the loading thread sleeps; wait_for_partner: a FIFO's open, waiting
  // for the other end. A kernel that shows no name (0): in an open, while its path is now a FIFO.
  bool waits_on_fifo() const {
    const std::string task = "/proc/self/task/" + std::to_string(loader_) + "/";
    std::string where = first_line_of(task + "wchan");
    if (where == "wait_for_partner") return true;
    if (!where.empty() && where != "0") return false;
    std::string call = first_line_of(task + "syscall");
    const bool opening = call.rfind(std::to_string(SYS_openat) + " ", 0) == 0;
    struct stat st;
    return opening && ::stat(path_.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
  }

  static std::string first_line_of(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    char text[128];
    ssize_t n = ::read(fd, text, sizeof text);
    ::close(fd);
    if (n <= 0) return {};
    std::string line(text, std::size_t(n));
    return line.substr(0, line.find('\n'));
  }

  static inline std::atomic<unsigned> signals_taken{0};
  static void take_signal(int) { signals_taken.fetch_add(1); }

  // The first rescue signal at its default disposition, handled without SA_RESTART until the
  // loading thread has taken it (at most a second): given back as soon as the thread leaves its
  // wait, before it takes the signal, the default would discard it and the open start again.
  bool interrupt() const {
    for (int signal : rescue_signals) {
      struct sigaction wake = {};
      struct sigaction before = {};
      wake.sa_handler = &take_signal;
      ::sigfillset(&wake.sa_mask);
      if (::sigaction(signal, &wake, &before) != 0) continue;
      if (before.sa_handler != SIG_DFL || (before.sa_flags & SA_SIGINFO) != 0) {
        ::sigaction(signal, &before, nullptr);  // the program's own: given back at once
        continue;
      }
      const unsigned taken = signals_taken.load();
      ::syscall(SYS_tgkill, ::getpid(), loader_, signal);
      for (int waited_ms = 0; waited_ms < 1000 && signals_taken.load() == taken; ++waited_ms) ::usleep(1000);
      ::sigaction(signal, &before, nullptr);
      return signals_taken.load() != taken;
    }
    return false;
  }

  std::string path_;
  pid_t loader_;
  bool& interrupted_out_;
  sigset_t loader_mask_;
  pthread_t watcher_{};
  bool started_ = false;
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  bool interrupted_ = false;
};

// The system loader itself: the default backend. With CUSHIM_USE_BOOST_DLL, boost_dll_backend.hpp
// loads and unloads through Boost.DLL instead, and keeps these for the references find_loaded takes.
namespace native {

// Always an absolute path, so the system search (and the current directory) is not involved.
// RTLD_NOW: a missing symbol in a dependency fails here, not at some later call.
inline load_result load_library(const std::string& absolute_path) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  ::dlerror();
  library_handle h = ::dlopen(absolute_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h) return {h, {}, false};
  const char* err = ::dlerror();
  return {nullptr, err ? err : "unknown dlopen error", false};
}

// Windows' bare-name load through the default DLL folders; Linux has no such rule.
inline load_result load_from_default_dirs(const std::string&) { return {nullptr, words::no_default_dll_folders, true}; }

inline void unload_library(library_handle h) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  if (h) ::dlclose(h);
}

// A copy already in the process (loaded by the app or another framework), without loading one;
// takes a reference, which unload_library drops.
inline library_handle find_loaded(const std::string& file_name, std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  std::string found = loaded_copy_path(file_name);
  if (found.empty()) return nullptr;
  library_handle h = ::dlopen(found.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h) path = found;
  return h;
}

}  // namespace native

inline any_function find_symbol(library_handle h, const char* name) {
  void* p;
  {
    std::lock_guard<std::recursive_mutex> lock(dl_mutex());
    p = ::dlsym(h, name);
  }
  any_function f;
  static_assert(sizeof f == sizeof p, "function and data pointers differ in size");
  std::memcpy(&f, &p, sizeof f);
  return p ? f : nullptr;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
