// Linux: probe_in_child's request run in a child (fork), for work that may crash, end the process
// or hang: what it wrote, and how it ended. A program that serves requests (serve_probe_request)
// is not needed here, so options.probe_program is not used.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "../platform_types.hpp"
#include "../probe_request.hpp"

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

// In a probe child, before the request runs: the host's crash handlers (a crash reporter, a
// sanitizer) are not for it; a library that crashes there must end it by its signal, which the
// parent names.
inline void prepare_probe_child() {
  for (int fatal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) ::signal(fatal, SIG_DFL);
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

// The parent's hold on a probe child: however the parent leaves run_in_child (a cancelled thread
// unwinds from poll()), the child is killed and reaped and the pipe closed.
class probe_child {
 public:
  probe_child(pid_t pid, int pipe) : pid_(pid), pipe_(pipe) {}
  ~probe_child() {
    int state;
    ::pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &state);
    ::close(pipe_);
    if (!reaped_) {
      kill();
      wait();
    }
    ::pthread_setcancelstate(state, nullptr);
  }
  probe_child(const probe_child&) = delete;
  probe_child& operator=(const probe_child&) = delete;

  int pipe() const { return pipe_; }
  void kill() { ::kill(pid_, SIGKILL); }
  // Its wait status.
  int wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    return status;
  }

 private:
  pid_t pid_;
  int pipe_;
  bool reaped_ = false;
};

// The child runs the request and ends with _exit(0); its output is what it wrote to the pipe.
// The parent reads until the child closes the pipe or `timeout_ms` passes, then kills it.
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
    run_child_request(request, fds[1]);
    end_probe_child();
  }
  ::close(fds[1]);
  probe_child child(pid, fds[0]);
  run.ran = true;
  const long long deadline = monotonic_ms() + timeout_ms;
  for (char buffer[512];;) {
    long long left = deadline - monotonic_ms();
    pollfd p{child.pipe(), POLLIN, 0};
    int ready = left > 0 ? ::poll(&p, 1, int(left)) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      run.timed_out = true;
      child.kill();
      break;
    }
    ssize_t got = ::read(child.pipe(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    run.output.append(buffer, std::size_t(got));
  }
  int status = child.wait();
  if (WIFEXITED(status)) run.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal_name = signal_name(WTERMSIG(status));
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
