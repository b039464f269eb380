// What cushim holds at run time: the options, and per library its status, handle and the
// functions its calls could not reach. One array, indexed by library.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "descriptor.hpp"
#include "../platform/fork_gate.hpp"
#include "search_list.hpp"
#include "../platform/thread_end.hpp"
#include "words/loading.hpp"

namespace cushim {
namespace detail {
namespace {

struct library_state {
  const library_descriptor* desc = nullptr;
  status st;
  platform::library_handle handle = nullptr;
  std::mutex load_mutex;  // the first use loads; the others wait for it (not std::call_once, whose
                          // machinery libstdc++ shares between every module of the process)
  bool load_attempted = false;
  std::atomic<bool> loaded{false};
  bool fail_fast = false;    // set once, while loading (options.fail_fast or CUSHIM_FAIL_FAST=1)
  std::mutex missing_mutex;  // functions the loaded copy lacks, or whose sub-library is unusable
  std::vector<std::string> missing_functions;
  std::vector<std::string> blocked_functions;  // "cudnnConvolutionForward|libcudnn_cnn.so.9"
  // What only a report needs is done when first asked for, not at load: the copies the search did
  // not reach are listed, and sub-libraries the library loads by name itself (cuDNN's) checked
  // (those also on the first call into one).
  std::recursive_mutex completion_mutex;  // recursive: the log callback may ask for a report
  std::vector<candidate> searched;        // the search that found the copy in use
  std::size_t first_unused = 0;           // searched[first_unused...] came after it
  bool other_copies_listed = false;
  std::vector<char> sublibrary_pending;  // per st.sublibraries entry: not loaded yet, so a first call loads it
  // Once status_of() has handed the status out it never changes (other threads read it without a
  // lock): a sub-library a load refuses after that is recorded here, gated, and reported.
  std::vector<char> sublibrary_refused;  // per entry, under completion_mutex
  std::vector<problem> late_problems;    // under missing_mutex; the report lists them
  std::vector<platform::library_handle> sublibrary_handles;
  bool sublibraries_reported = false;
  std::vector<std::string> link_time_stubs;  // candidates refused as the CUDA toolkit's stub (the driver)
};

struct shim_state {
  shim_state();
  std::mutex options_mutex;
  options opts;
  std::atomic<bool> started{false};
  std::mutex notes_mutex;  // refused configure() calls and the like
  std::vector<std::string> notes;
  library_state libraries[library_count];
  fork_gate forks;
};

// Whether this thread is making cushim's state (the first shim() call): a call that re-enters cushim
// meanwhile (a signal handler) must not reach shim() again, whose allocation is then half done.
inline thread_local bool making_state_on_this_thread = false;

// The state, once one is made. Not a function-local static: a fork while another thread makes it
// would leave the child waiting forever on the static's guard, held by a thread the child lacks.
inline std::atomic<shim_state*> made_state{nullptr};

// Never destroyed: stubs may be called from other objects' destructors at exit. Threads that arrive
// together each make one and all keep the first published; nothing waits, so neither does a child
// forked meanwhile (it makes its own).
inline shim_state& shim() {
  shim_state* s = made_state.load(std::memory_order_acquire);
  if (s) return *s;
  making_state_on_this_thread = true;
  shim_state* made = new shim_state;
  if (made_state.compare_exchange_strong(s, made, std::memory_order_acq_rel)) {
    s = made;
  } else {
    delete made;
  }
  making_state_on_this_thread = false;
  return *s;
}

// A stretch of cushim's work that may take its locks: a fork by the program waits for it to end
// (fork_gate.hpp), and so does a cancellation request (platform::cancellation_off), which is off
// before the gate's own wait.
class fork_pass {
 public:
  fork_pass() { shim().forks.enter(); }
  ~fork_pass() { shim().forks.leave(); }
  fork_pass(const fork_pass&) = delete;
  fork_pass& operator=(const fork_pass&) = delete;

 private:
  platform::cancellation_off no_cancellation_;
};

inline library_state& state_of(library lib) { return shim().libraries[int(lib)]; }

// Whether this thread is inside the log callback now.
inline thread_local bool in_log_callback = false;

inline void add_note(const std::string& text);

// The log callback with one line (docs/api.md, "Public API": "The log callback" says what it may
// do). What it throws is caught and ignored, with one note: it must end neither a load nor a
// cudnn* function, which is C, into its caller. A thread that cancellation or pthread_exit ends
// unwinds on.
inline void call_log(log_function log, void* context, const std::string& line) {
  if (!log) return;
  struct inside {
    bool before = in_log_callback;
    inside() { in_log_callback = true; }
    ~inside() { in_log_callback = before; }
  };
  static std::atomic<bool> noted{false};
  catching_all(
      [&] {
        inside mark;
        platform::cancellation_off::callers_state callers;  // the program's code: its own cancellation
        log(line, context);
      },
      [] {},
      [&] {
        if (noted.exchange(true)) return;
        add_note(notes_of::log_callback_threw(line));
      });
}

inline void log_line(const options& opts, const std::string& line) { call_log(opts.log, opts.log_context, line); }

// One line to the configured log callback, called with no lock held: it may call back into
// cushim (explain(), a cudnn* function), which takes those locks itself.
inline void log_event(const std::string& line) {
  shim_state& s = shim();
  log_function log;
  void* context;
  {
    std::lock_guard<std::mutex> lock(s.options_mutex);
    log = s.opts.log;
    context = s.opts.log_context;
  }
  call_log(log, context, line);
}

// Reports a refused call or similar event that happens after loading started, once per text. A
// note made inside the log callback (its own configure(), refused) is kept but not logged: logging
// it would call the callback again, and again.
inline void add_note(const std::string& text) {
  shim_state& s = shim();
  {
    std::lock_guard<std::mutex> lock(s.notes_mutex);
    for (const std::string& note : s.notes) {
      if (note == text) return;
    }
    s.notes.push_back(text);
  }
  if (!in_log_callback) log_event("cushim: " + text);
}

}  // namespace
}  // namespace detail
}  // namespace cushim
