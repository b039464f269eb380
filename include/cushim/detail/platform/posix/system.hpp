// Linux: the environment and the process's own files.
#pragma once

#include <dlfcn.h>
#include <pthread.h>
#include <link.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dynamic_library.hpp"
#include "files.hpp"

extern char** environ;

namespace cushim {
namespace detail {
namespace {
namespace platform {

// Whether the process runs in secure-execution mode (AT_SECURE): a setuid or setgid program, or
// one with file capabilities, started by a user with fewer rights. Its environment is that user's.
inline bool secure_execution() { return ::getauxval(AT_SECURE) != 0; }

// None in secure-execution mode, as glibc's secure_getenv: every variable cushim reads steers what
// it loads (CUSHIM_*, CUDNN_PATH, CUDA_PATH, CONDA_PREFIX, VIRTUAL_ENV, HOME), and a setuid program
// must not load what its caller names, as the system loader ignores LD_LIBRARY_PATH there.
inline const char* get_environment(const char* name) { return ::secure_getenv(name); }

// The names of all environment variables.
inline std::vector<std::string> environment_names() {
  std::vector<std::string> names;
  for (char** entry = environ; entry && *entry; ++entry) {
    const char* equals = std::strchr(*entry, '=');
    if (equals && equals != *entry) names.emplace_back(*entry, std::size_t(equals - *entry));
  }
  return names;
}

// Linux lists hold no variable references.
inline std::string expand_environment(const std::string& text) { return text; }

// cushim's own work (a fork_pass) is no cancellation point: a thread cancelled inside it unwound out
// of a close() in a destructor (std::terminate), and could have unwound out of the system loader with
// its lock held. A cancellation request waits, as for any function that is none, until the thread
// reaches one; the program's own code that cushim calls (the log callback) and the wait for a probe
// child run in the caller's own state, so a request acts there, and the thread unwinds through cushim.
class cancellation_off {
 public:
  cancellation_off() {
    if (depth_++ == 0) ::pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &callers_);
  }
  ~cancellation_off() {
    if (--depth_ == 0) ::pthread_setcancelstate(callers_, nullptr);
  }
  cancellation_off(const cancellation_off&) = delete;
  cancellation_off& operator=(const cancellation_off&) = delete;

  // Inside cushim's work, the caller's state again; cushim's work nested in it (explain() from the
  // log callback) is again none.
  class callers_state {
   public:
    callers_state() : outer_depth_(depth_) {
      if (outer_depth_ == 0) return;
      ::pthread_setcancelstate(callers_, &ours_);
      depth_ = 0;
    }
    ~callers_state() {
      if (outer_depth_ == 0) return;
      depth_ = outer_depth_;
      ::pthread_setcancelstate(ours_, nullptr);
    }
    callers_state(const callers_state&) = delete;
    callers_state& operator=(const callers_state&) = delete;

   private:
    int outer_depth_;
    int ours_ = PTHREAD_CANCEL_DISABLE;
  };

 private:
  static inline thread_local int depth_ = 0;
  static inline thread_local int callers_ = PTHREAD_CANCEL_ENABLE;
};

// Handlers run around fork() by the forking thread (removed by glibc when a module is unloaded).
inline void on_fork(void (*prepare)(), void (*in_parent)(), void (*in_child)()) {
  ::pthread_atfork(prepare, in_parent, in_child);
}

// Whether LD_PRELOAD names this file (by any path to it).
inline bool preloaded_by_environment(const std::string& path) {
  const char* value = get_environment("LD_PRELOAD");
  if (!value) return false;
  file_identity loaded = identity_of(path);
  std::string list = value;
  for (std::size_t start = 0; start <= list.size();) {
    std::size_t end = list.find_first_of(": ", start);
    if (end == std::string::npos) end = list.size();
    if (end > start && identity_of(list.substr(start, end - start)) == loaded) return loaded.known();
    start = end + 1;
  }
  return false;
}

inline std::string executable_path() {
  char buf[4096];  // on the stack: a vector would zero its 4 KiB on every call
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  return std::string(buf, std::size_t(n));
}

// The file (executable or shared library) that holds the given address. For the main program
// glibc reports argv[0], which may be relative or false, so that case uses /proc/self/exe; a
// relative name is never resolved against the current folder.
inline std::string module_path_of(const void* address) {
  std::lock_guard<std::recursive_mutex> lock(dl_mutex());
  Dl_info info;
  struct link_map* map = nullptr;
  if (::dladdr1(address, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 || !map) return {};
  if (!map->l_name || map->l_name[0] == '\0') return executable_path();
  return map->l_name[0] == '/' ? std::string(map->l_name) : std::string();
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
