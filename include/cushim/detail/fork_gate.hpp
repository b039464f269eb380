// fork() while another thread loads a library would leave the child a half-done search, and a
// load lock that no thread of the child will ever release. So a fork waits for the loads in
// progress, and no load starts until it is done (the handlers platform::on_fork registers; Windows
// has no fork).
#pragma once

#include <condition_variable>
#include <mutex>
#include <new>

namespace cushim {
namespace detail {
namespace {

class fork_gate {
 public:
  // Around every load. A load started while this thread loads another (from the log callback)
  // goes on even during a fork's wait: the fork waits for the outer load, which waits for it.
  void enter(bool nested) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!nested) idle_.wait(lock, [this] { return !forking_; });
    ++loads_;
  }

  void leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    --loads_;
    idle_.notify_all();
  }

  // In the forking thread: waits until only its own loads (`own`) are in progress, and keeps
  // the gate locked through the fork.
  void before_fork(int own) {
    std::unique_lock<std::mutex> lock(mutex_);
    forking_ = true;
    idle_.wait(lock, [this, own] { return loads_ <= own; });
    lock.release();
  }

  void after_fork_in_parent() {
    forking_ = false;
    mutex_.unlock();
    idle_.notify_all();
  }

  // The child has one thread: the waiters the condition variable knew are gone with the parent's
  // other threads, so it starts afresh.
  void after_fork_in_child() {
    forking_ = false;
    idle_.~condition_variable();
    new (&idle_) std::condition_variable();
    mutex_.unlock();
  }

 private:
  std::mutex mutex_;
  std::condition_variable idle_;
  int loads_ = 0;
  bool forking_ = false;
};

}  // namespace
}  // namespace detail
}  // namespace cushim
