// fork() and every lock cushim takes, one rule (docs/checks.md, "What is checked, in order": its
// "Threads, fork(), cancellation and signals"):
// - cushim takes its locks (a library's load, its status's completion, the dl lock, the options
//   and the notes) only inside a pass through this gate (fork_pass, state.hpp).
// - A fork by the program waits until no other thread is inside a pass (but for threads that are
//   forking themselves), and no new pass begins until it is done: the child starts with every lock
//   free and every load done or not begun.
// - A fork by cushim itself (a probe_in_child child, made inside a pass) waits for no pass: another
//   one may be a probe fork that waits for it (two first loads at once). Its child runs only the
//   probe's own work, which takes no lock but the dl lock.
// - Every fork holds the dl lock across (platform::dl_lock_for_fork), so its child has it free.
// - The child starts the gate afresh: the other threads' passes and waits are gone with them.
// Windows has no fork: the handlers are never registered there (platform::on_fork).
#pragma once

#include <condition_variable>
#include <mutex>
#include <new>

#include "platform.hpp"

namespace cushim {
namespace detail {
namespace {

class fork_gate {
 public:
  // A pass begun while this thread is inside another (from the log callback, a library's
  // constructor) goes on even while a fork waits: the fork waits for the outer pass.
  void enter() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (depth_ == 0) idle_.wait(lock, [this] { return forking_threads_ == 0; });
    ++depth_;
    ++passes_;
  }

  void leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    --depth_;
    --passes_;
    idle_.notify_all();  // under the lock: a fork's child makes the condition variable anew
  }

  // Around cushim's own fork (probe_in_child): that fork waits for no pass.
  class probe_fork {
   public:
    probe_fork() { probe_forking_ = true; }
    ~probe_fork() { probe_forking_ = false; }
    probe_fork(const probe_fork&) = delete;
    probe_fork& operator=(const probe_fork&) = delete;
  };

  // The fork handlers (platform::on_fork, registered when cushim's state is made). In the forking
  // thread, which keeps the gate locked through the fork: a fork by the program first waits until
  // the passes in progress are its own or those of threads that fork too, and then finds the dl
  // lock free (it is taken only inside passes); a probe fork takes the dl lock before the gate's,
  // which a pass inside a dlopen (a library's constructor calling cushim) takes after it.
  void before_fork() {
    if (probe_forking_) {
      platform::dl_lock_for_fork();
      mutex_.lock();
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    ++forking_threads_;
    forking_depth_ += depth_;
    idle_.wait(lock, [this] { return passes_ == forking_depth_; });
    lock.release();
    platform::dl_lock_for_fork();
  }

  void after_fork_in_parent() {
    platform::dl_unlock_after_fork();
    if (!probe_forking_) {
      --forking_threads_;
      forking_depth_ -= depth_;
      idle_.notify_all();
    }
    mutex_.unlock();
  }

  // The condition variable is made anew, never destroyed: glibc's destructor waits for waiters
  // that are gone with their threads. The mutex is this thread's.
  void after_fork_in_child() {
    platform::dl_lock_reset_in_child();
    new (&idle_) std::condition_variable;
    passes_ = depth_;
    forking_threads_ = 0;
    forking_depth_ = 0;
    mutex_.unlock();
  }

 private:
  static inline thread_local int depth_ = 0;  // this thread's passes in progress
  static inline thread_local bool probe_forking_ = false;
  std::mutex mutex_;
  std::condition_variable idle_;
  int passes_ = 0;           // every thread's
  int forking_threads_ = 0;  // threads in before_fork (a program's fork)
  int forking_depth_ = 0;    // their own passes
};

}  // namespace
}  // namespace detail
}  // namespace cushim
