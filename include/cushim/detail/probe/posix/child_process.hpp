// Linux: probe_in_child's request run in a child (fork), for work that may crash, end the process
// or hang: what it wrote, and how it ended. A program that serves requests (serve_probe_request)
// is not needed here, so options.probe_program is not used.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../../platform/platform_types.hpp"
#include "../probe_request.hpp"
#include "../../platform/posix/system.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline long long monotonic_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

// "SIGSEGV": the signals a crashing library raises, by name.
inline std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(signal);
  }
}

// The child's own word on how it ends, on its pipe: "ended signal 11", "ended exit 3". The parent
// reads it when it cannot read the child's wait status (a host that ignores SIGCHLD, or reaps every
// child in its handler). Written with write() alone: it runs in a signal handler.
inline int probe_child_pipe = -1;

// "ended <how> <number>\n"; `how` is "signal" or "exit", `number` 0 to 255.
inline void say_how_it_ends(const char* how, int number) {
  char line[32] = "ended ";
  std::size_t n = std::strlen(line);
  for (const char* c = how; *c; ++c) line[n++] = *c;
  line[n++] = ' ';
  const unsigned value = unsigned(number) & 0xffu;
  if (value >= 100) line[n++] = char('0' + value / 100);
  if (value >= 10) line[n++] = char('0' + value / 10 % 10);
  line[n++] = char('0' + value % 10);
  line[n++] = '\n';
  for (std::size_t done = 0; done < n;) {
    ssize_t written = ::write(probe_child_pipe, line + done, n - done);
    if (written <= 0 && errno != EINTR) return;
    if (written > 0) done += std::size_t(written);
  }
}

// Says the signal, then lets it end the process as it would have (SA_RESETHAND: the default action
// once the handler returns).
inline void say_signal_and_end(int signal) {
  int saved = errno;
  say_how_it_ends("signal", signal);
  ::raise(signal);
  errno = saved;
}

inline void say_exit_status(int status, void*) { say_how_it_ends("exit", status); }

// In a probe child, before the request runs: the host's crash handlers (a crash reporter, a
// sanitizer) are not for it; a library that crashes there must end it by its signal, which the
// parent names.
inline void prepare_probe_child() {
  for (int fatal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) ::signal(fatal, SIG_DFL);
  load_watch::unwatched_in_this_process = true;
}

// In a fork child, after prepare_probe_child: it says how it ends on `fd` before it does (a crash
// from a handler on a stack of its own, for a stack overflow; exit() by its status), for a
// parent whose wait cannot see it.
inline void* probe_child_signal_stack = nullptr;  // the child's alone, kept until it ends

inline void say_own_end_on(int fd) {
  probe_child_pipe = fd;
  stack_t stack{};
  stack.ss_size = 64 * 1024;
  stack.ss_sp = probe_child_signal_stack = std::malloc(stack.ss_size);
  if (stack.ss_sp) ::sigaltstack(&stack, nullptr);
  struct sigaction say {};
  say.sa_handler = &say_signal_and_end;
  say.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&say.sa_mask);
  for (int fatal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) ::sigaction(fatal, &say, nullptr);
  ::on_exit(&say_exit_status, nullptr);
}

// Ends a probe child that took every step, without the exit handlers and destructors of a process
// it shares them with (the fork child's), or that a library it loaded registered.
[[noreturn]] inline void end_probe_child() { ::_exit(0); }

// The request on a probe program's command line: probe_request_argument, what, path.
inline bool probe_request_in_arguments(int argc, char** argv, probe_request& request) {
  if (argc != 4 || std::strcmp(argv[1], probe_request_argument) != 0) return false;
  request = {argv[2], argv[3]};
  return true;
}

// The parent's hold on a probe child, through a pidfd where the kernel has them (Linux 5.3): the
// child's end is seen even when a process it left behind still holds the pipe, and its wait status
// can be taken by no other wait of this process. However the parent leaves run_in_child (a
// cancelled thread unwinds from poll()), the child is killed and reaped and the pipe closed.
class probe_child {
 public:
  probe_child(pid_t pid, int pipe) : pid_(pid), pipe_(pipe) {
#ifdef SYS_pidfd_open
    pidfd_ = int(::syscall(SYS_pidfd_open, pid, 0));
#endif
    ::fcntl(pipe_, F_SETFL, O_NONBLOCK);
  }
  ~probe_child() {
    int state;
    ::pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &state);
    ::close(pipe_);
    if (!reaped_) {
      kill();
      wait();
    }
    if (pidfd_ >= 0) ::close(pidfd_);
    ::pthread_setcancelstate(state, nullptr);
  }
  probe_child(const probe_child&) = delete;
  probe_child& operator=(const probe_child&) = delete;

  int pipe() const { return pipe_; }
  int pidfd() const { return pidfd_; }
  void kill() {
#ifdef SYS_pidfd_send_signal
    if (pidfd_ >= 0 && ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0) == 0) return;
#endif
    if (!reaped_) ::kill(pid_, SIGKILL);
  }

  // Without a pidfd: whether it has ended, reaping it if so.
  bool ended_now() {
    int status = 0;
    pid_t got = ::waitpid(pid_, &status, WNOHANG);
    if (got == pid_) keep(status);
    if (got < 0 && errno == ECHILD) reaped_ = true;  // reaped by another wait of this process
    return reaped_;
  }

  // Waits for its end; false when another wait of this process took its status first.
  bool wait() {
    if (reaped_) return known_;
    if (pidfd_ >= 0) {
      siginfo_t info{};
      while (::waitid(static_cast<idtype_t>(3 /* P_PIDFD */), id_t(pidfd_), &info, WEXITED) < 0 && errno == EINTR) {
      }
      reaped_ = true;
      if (info.si_pid == 0) return known_;
      known_ = true;
      if (info.si_code == CLD_EXITED) exit_status_ = info.si_status;
      if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) signal_ = info.si_status;
      return known_;
    }
    int status = 0;
    pid_t got;
    while ((got = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (got == pid_) keep(status);
    return known_;
  }

  int exit_status() const { return exit_status_; }
  int signal() const { return signal_; }

 private:
  void keep(int status) {
    reaped_ = known_ = true;
    if (WIFEXITED(status)) exit_status_ = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) signal_ = WTERMSIG(status);
  }

  pid_t pid_;
  int pipe_;
  int pidfd_ = -1;
  bool reaped_ = false;
  bool known_ = false;  // its wait status was read here
  int exit_status_ = -1;
  int signal_ = 0;
};

// How the child ended by its own word (say_how_it_ends), for a wait status taken elsewhere. A child
// that said nothing but took its last step ended with _exit(0) right after it.
inline void read_own_word(child_run& run) {
  std::size_t at = run.output.rfind("ended ");
  if (at != std::string::npos && (at == 0 || run.output[at - 1] == '\n')) {
    std::string how = run.output.substr(at + 6, run.output.find('\n', at) - at - 6);  // "signal 11"
    int number = std::atoi(how.c_str() + how.find(' ') + 1);
    if (how.compare(0, 7, "signal ") == 0) run.signal_name = signal_name(number);
    if (how.compare(0, 5, "exit ") == 0) run.exit_status = number;
    return;
  }
  const std::string done = "step done\n";
  if (run.output.size() >= done.size() && run.output.compare(run.output.size() - done.size(), done.size(), done) == 0) {
    run.exit_status = 0;
  } else {
    run.end_unseen = true;
  }
}

// Reads what is in the pipe now, without waiting: false once it is closed.
inline bool read_available(int pipe, std::string& output) {
  for (char buffer[512];;) {
    ssize_t got = ::read(pipe, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return true;  // EAGAIN: nothing more now
    if (got == 0) return false;
    output.append(buffer, std::size_t(got));
  }
}

// The child runs the request and ends with _exit(0); its output is what it wrote to the pipe. The
// parent reads until the child has ended (or, without a pidfd, closed the pipe: it looks every
// 20 ms) or `timeout_ms` passes, then kills it. A process the child left holding the pipe is not
// waited for.
inline child_run run_in_child(const probe_request& request, const std::string& /*program*/, int timeout_ms) {
  child_run run;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    run.why_no_child = std::string("pipe() failed: ") + std::strerror(errno);
    return run;
  }
  std::fflush(nullptr);  // or a child that ends by calling exit writes what this process had buffered
  pid_t pid = ::fork();
  if (pid < 0) {
    run.why_no_child = std::string("fork() failed: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return run;
  }
  if (pid == 0) {
    ::close(fds[0]);
    prepare_probe_child();
    say_own_end_on(fds[1]);
    run_child_request(request, fds[1]);
    end_probe_child();
  }
  ::close(fds[1]);
  probe_child child(pid, fds[0]);
  run.ran = true;
  const long long deadline = monotonic_ms() + timeout_ms;
  cancellation_off::callers_state callers;  // a wait of seconds: cancelling the thread ends it and the child
  for (bool open = true; open;) {
    long long left = deadline - monotonic_ms();
    if (left <= 0) {
      run.timed_out = true;
      child.kill();
      break;
    }
    pollfd p[2] = {{child.pipe(), POLLIN, 0}, {child.pidfd(), POLLIN, 0}};
    int ready = ::poll(p, child.pidfd() >= 0 ? 2 : 1, int(child.pidfd() >= 0 ? left : std::min(left, 20LL)));
    if (ready < 0 && errno == EINTR) continue;
    if (p[0].revents) open = read_available(child.pipe(), run.output);
    bool ended = child.pidfd() >= 0 ? p[1].revents != 0 : child.ended_now();
    if (ended) {
      read_available(child.pipe(), run.output);  // all it wrote before it ended
      break;
    }
  }
  if (child.wait()) {
    run.exit_status = child.exit_status();
    if (child.signal()) run.signal_name = signal_name(child.signal());
  } else {
    read_own_word(run);
  }
  return run;
}

// Writes a line to the pipe of run_in_child.
inline void write_line(int fd, const std::string& line) {
  std::string text = line + "\n";
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += std::size_t(n);
  }
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
