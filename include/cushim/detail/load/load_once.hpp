// A library's load, once, from whichever thread calls first: the lock and the re-entry guard
// around the loader (a log callback, a library's constructor or a signal handler that calls in
// while this thread loads gets the fallback), and the forgetting of a load whose thread ended in it.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "loader.hpp"
#include "../search/words/loading.hpp"
#include "../search/state.hpp"
#include "../platform/thread_end.hpp"

namespace cushim {
namespace detail {
namespace {

// The libraries this thread is loading right now (one bit each), so a log callback that calls
// explain() or status_of() sees the state so far instead of waiting on its own load.
inline thread_local unsigned loading_on_this_thread = 0;

// Whether a call on this thread re-enters the library's load, or the making of cushim's state: from
// the log callback, a library's constructor, or a signal handler.
inline bool loading_on_this_thread_now(library lib) {
  return making_state_on_this_thread || (loading_on_this_thread & (1u << unsigned(lib))) != 0;
}

// A load whose thread ended in it (pthread_cancel, or pthread_exit from the log callback) is
// forgotten, under its lock, so that the next call loads the library afresh; what it had loaded stays
// in the process (that search finds it there). The note is not logged: the thread is unwinding.
inline void forget_unfinished_load(library_state& lib) {
  status fresh;
  fresh.lib = lib.st.lib;
  fresh.compiled_version = lib.st.compiled_version;
  lib.st = std::move(fresh);
  lib.handle = nullptr;
  lib.searched.clear();
  lib.first_unused = 0;
  lib.sublibrary_pending.clear();
  lib.link_time_stubs.clear();
  lib.load_attempted = false;
  shim_state& s = shim();
  std::lock_guard<std::mutex> lock(s.notes_mutex);
  s.notes.push_back(notes_of::load_ended_with_thread(*lib.desc));
}

// What a text function returns while its library cannot be reached: unavailable, or, for a call
// that re-enters the library's load on this thread, still being loaded (that call's fallback is
// not kept in its slot: the next call resolves again).
inline const char* unavailable_text(const library_descriptor& d) {
  return loading_on_this_thread_now(d.id) ? still_loading_text : d.unavailable_text;
}

// Loads on first use from any thread; later calls return at once. The thread is marked as loading
// before the first static and lock: a signal handler that calls in meanwhile gets the fallback
// instead of a static being made or a lock this thread already holds.
inline bool ensure_loaded(library id) {
  if (loading_on_this_thread_now(id)) return false;
  const unsigned bit = 1u << unsigned(id);
  struct mark {
    unsigned bit;
    ~mark() { loading_on_this_thread &= ~bit; }
  } loading{bit};
  loading_on_this_thread |= bit;
  library_state& lib = state_of(id);
  if (lib.loaded.load(std::memory_order_acquire)) return true;
  shim_state& s = shim();
  fork_pass pass;
  std::lock_guard<std::mutex> lock(lib.load_mutex);
  if (lib.load_attempted) return lib.loaded.load(std::memory_order_acquire);
  lib.load_attempted = true;
  s.started.store(true);
  options opts;
  {
    std::lock_guard<std::mutex> options_lock(s.options_mutex);
    opts = s.opts;
  }
  const char* fail_fast = opts.use_environment ? platform::get_environment("CUSHIM_FAIL_FAST") : nullptr;
  lib.fail_fast = opts.fail_fast || (fail_fast && std::string(fail_fast) == "1");
  catching_all([&] { loader(lib, opts).run(); }, [&] { forget_unfinished_load(lib); },
               [&] {
                 lib.st.code = error_code::load_failed;
                 lib.st.problems.push_back(problems_of::stopped_while_loading());
               });
  return lib.loaded.load(std::memory_order_acquire);
}

}  // namespace
}  // namespace detail
}  // namespace cushim
