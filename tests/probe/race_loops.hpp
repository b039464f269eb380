// cushim_probe --mode loop SCENARIO [--runs N] [--seconds S]: a race repeated in fresh processes
// (issue 33). Each run forks a child of this process, which never calls cushim itself, so the child
// starts with cushim untouched, as a new process would; the child plays the scenario once and says
// by its exit status whether the answers were right. This process keeps each run to its own time
// limit and, for the scenarios that change a file under the child, does the changing. The loop
// stops after N runs or S seconds, whichever comes first, or at the first run that hangs, dies of
// a signal or answers wrong, and prints:
//   loop.runs=<runs finished>  loop.failed=0|1  loop.failure=<run, how, and what the child said>
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace race {

inline long long now_us() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

inline void sleep_us(long us) {
  timespec t{us / 1000000, (us % 1000000) * 1000};
  while (::nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

// xorshift: the runs' random delays, from a seed the loop prints.
struct random_numbers {
  std::uint64_t state;
  long below(long n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return long(state % std::uint64_t(n));
  }
};

// What this process does to the candidate file while a child runs (the file scenarios).
struct file_under_race {
  std::string dir, path, fifo, spare;  // spare: a copy renamed over path to restore it
  std::string bytes;                   // the fixture's content
};

// --- What one child does ------------------------------------------------------------------------
// Each returns the child's exit status: 0 when every answer was right, 1 after printing what was
// wrong. The child ends with _exit, never running the exit handlers of a process it shares them
// with, and never touching a library after cushim's work is done (a file cut under a mapping ends
// any process that touches it, linked directly or not).

// The answers of a first use that may meet a file changed under it: cuDNN loaded, of the compiled
// version, or refused with a load_failed attempt that says why. Never anything else.
inline int first_use_of_changing_file() {
  const bool usable = cushim::available(cushim::library::cudnn);
  const cushim::status& st = cushim::status_of(cushim::library::cudnn);
  std::cout << "code=" << cushim::to_string(st.code) << " version=" << st.version << '\n';
  for (const cushim::attempt& a : st.attempts) {
    std::cout << "attempt=" << cushim::to_string(a.result) << '|' << a.detail << '\n';
  }
  if (usable) return st.version == CUDNN_VERSION ? 0 : 1;
  return st.code == cushim::error_code::override_failed || st.code == cushim::error_code::load_failed ? 0 : 1;
}

inline std::atomic<bool> go{false};

inline void* first_calls(void*) {
  while (!go.load()) {
  }
  cudnnGetVersion();
  int version = 0;
  cudaRuntimeGetVersion(&version);
  return nullptr;
}

// fork() by the program while another thread makes its first calls: every child forked meanwhile
// calls cuDNN and must be done at once (its limit: 3 s).
inline int fork_during_first_calls() {
  pthread_t loading;
  ::pthread_create(&loading, nullptr, first_calls, nullptr);
  go = true;
  int stuck = 0;
  for (int forks = 0; forks < 8; ++forks) {
    std::fflush(nullptr);
    pid_t child = ::fork();
    if (child == 0) {
      const bool right = cudnnGetVersion() == CUDNN_VERSION && cushim::available(cushim::library::cudnn);
      ::_exit(right ? 0 : 1);
    }
    int status = 0;
    const long long deadline = now_us() + 3000000;
    while (::waitpid(child, &status, WNOHANG) == 0) {
      if (now_us() > deadline) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        break;
      }
      sleep_us(200);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::cout << "forked child " << forks << " ended "
                << (WIFSIGNALED(status) ? "by signal " + std::to_string(WTERMSIG(status))
                                        : "with status " + std::to_string(WEXITSTATUS(status)))
                << '\n';
      ++stuck;
    }
  }
  ::pthread_join(loading, nullptr);
  return stuck == 0 ? 0 : 1;
}

inline void* first_calls_then_wait_for_cancel(void*) {
  cudnnGetVersion();
  int count = -1;
  cudaGetDeviceCount(&count);
  for (;;) {
    ::pthread_testcancel();
    sleep_us(100);
  }
}

// pthread_cancel of a thread inside its first calls, at a random moment (CANCEL_DELAY_US, up to
// 4 ms): it unwinds, and this thread's calls then get the right answers.
inline int cancel_during_first_calls() {
  random_numbers r{std::uint64_t(now_us()) ^ std::uint64_t(::getpid())};
  const long delay = r.below(4000);
  pthread_t thread;
  ::pthread_create(&thread, nullptr, first_calls_then_wait_for_cancel, nullptr);
  sleep_us(delay);
  ::pthread_cancel(thread);
  void* result = nullptr;
  ::pthread_join(thread, &result);
  const std::size_t version = cudnnGetVersion();
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  std::cout << "cancelled=" << (result == PTHREAD_CANCELED) << " cudnnGetVersion=" << version
            << " cudaRuntimeGetVersion=" << runtime << "\ndelay_us=" << delay << '\n';
  return result == PTHREAD_CANCELED && version == CUDNN_VERSION && runtime == CUDART_VERSION ? 0 : 1;
}

// --- What this process does meanwhile -----------------------------------------------------------
inline bool write_file(const std::string& path, const std::string& bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (fd < 0) return false;
  bool written = ::write(fd, bytes.data(), bytes.size()) == ssize_t(bytes.size());
  return ::close(fd) == 0 && written;
}

// Before each run: the candidate is the fixture again, and a FIFO waits beside it.
inline void restore(const file_under_race& f) {
  write_file(f.spare, f.bytes);
  ::rename(f.spare.c_str(), f.path.c_str());
  ::unlink(f.fifo.c_str());
  ::mkfifo(f.fifo.c_str(), 0644);
}

inline void fifo_over(const file_under_race& f) { ::rename(f.fifo.c_str(), f.path.c_str()); }

// The file cut to half its length and written back in place, as a copy over it does; with
// O_NONBLOCK, so that a lease cushim holds refuses the open instead of holding this process.
inline void cut_and_restore(const file_under_race& f, long cut_for_us) {
  int fd = ::open(f.path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  if (::ftruncate(fd, off_t(f.bytes.size() / 2)) == 0) {
    sleep_us(cut_for_us);
    if (::pwrite(fd, f.bytes.data(), f.bytes.size(), 0) < 0) std::perror("pwrite");
  }
  ::close(fd);
}

// One run as this process sees it while the child plays: its file, its random numbers, when it began.
struct run_state {
  const file_under_race& file;
  random_numbers& random;
  long long start_us;
  long fifo_at_us = -1;  // fifo-over-candidate: when the FIFO goes over the file; -1 once it has
};

struct scenario {
  const char* name;
  int (*child)();
  bool needs_file;                // a copy of CUSHIM_CUDNN_PATH's file
  void (*meanwhile)(run_state&);  // called again and again until the child ends; or null
};

// A FIFO renamed over the candidate once, 0-3 ms into the run.
inline void fifo_once(run_state& run) {
  if (run.fifo_at_us >= 0 && now_us() - run.start_us >= run.fifo_at_us) {
    fifo_over(run.file);
    run.fifo_at_us = -1;
  }
  sleep_us(100);
}

// From a random moment 0-1 ms into the run: the candidate a FIFO for 20-100 us, then the file again
// for 0.1-0.4 ms, again and again.
inline void fifo_flip(run_state& run) {
  if (now_us() - run.start_us < run.fifo_at_us / 3) return sleep_us(50);
  fifo_over(run.file);
  sleep_us(20 + run.random.below(80));
  restore(run.file);
  sleep_us(100 + run.random.below(300));
}

// From a random moment 0-1 ms into the run: the candidate cut for 50-150 us, then written back, and
// whole for 0.1-0.4 ms, again and again.
inline void cut(run_state& run) {
  if (now_us() - run.start_us < run.fifo_at_us / 3) return sleep_us(50);
  cut_and_restore(run.file, 50 + run.random.below(100));
  sleep_us(100 + run.random.below(300));
}

inline const scenario scenarios[] = {
    {"fork-during-first-calls", fork_during_first_calls, false, nullptr},
    {"cancel-during-first-calls", cancel_during_first_calls, false, nullptr},
    {"fifo-over-candidate", first_use_of_changing_file, true, fifo_once},
    {"fifo-flips-candidate", first_use_of_changing_file, true, fifo_flip},
    {"candidate-cut", first_use_of_changing_file, true, cut},
};

// --- The loop -----------------------------------------------------------------------------------
struct run_result {
  std::string how;  // empty: passed
  std::string output;
};

inline void read_into(int fd, std::string& out) {
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) out.append(buffer, std::size_t(n));
}

inline run_result run_once(const scenario& s, const file_under_race& f, random_numbers& r, long limit_ms) {
  if (s.needs_file) restore(f);
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return {"pipe2 failed", {}};
  std::fflush(nullptr);
  const long long start = now_us();
  pid_t child = ::fork();
  if (child == 0) {
    ::setpgid(0, 0);  // its own children are ended with it
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    int status = s.child();
    std::cout.flush();
    ::_exit(status);
  }
  ::close(out[1]);
  ::fcntl(out[0], F_SETFL, O_NONBLOCK);
  run_result result;
  run_state run{f, r, start};
  run.fifo_at_us = r.below(3000);
  int status = 0;
  for (;;) {
    if (s.meanwhile) {
      s.meanwhile(run);
    } else {
      sleep_us(500);
    }
    read_into(out[0], result.output);
    if (::waitpid(child, &status, WNOHANG) == child) break;
    if (now_us() - start > limit_ms * 1000) {
      ::kill(-child, SIGKILL);
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      result.how = "did not finish in " + std::to_string(limit_ms) + " ms";
      break;
    }
  }
  read_into(out[0], result.output);
  ::close(out[0]);
  if (!result.how.empty()) return result;
  if (WIFSIGNALED(status)) return {"ended by signal " + std::to_string(WTERMSIG(status)), result.output};
  if (WEXITSTATUS(status) != 0)
    return {"wrong answer (exit " + std::to_string(WEXITSTATUS(status)) + ")", result.output};
  return result;
}

// A temporary folder with a copy of CUSHIM_CUDNN_PATH's file, which the children load instead.
inline bool prepare_file(file_under_race& f) {
  const char* fixture = std::getenv("CUSHIM_CUDNN_PATH");
  if (!fixture) return false;
  int fd = ::open(fixture, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  read_into(fd, f.bytes);
  ::close(fd);
  char dir[] = "/tmp/cushim-race-XXXXXX";
  if (!::mkdtemp(dir)) return false;
  f.dir = dir;
  const char* slash = std::strrchr(fixture, '/');
  f.path = f.dir + "/" + (slash ? slash + 1 : fixture);
  f.fifo = f.path + ".fifo";
  f.spare = f.path + ".spare";
  ::setenv("CUSHIM_CUDNN_PATH", f.path.c_str(), 1);
  return true;
}

inline void remove_file(const file_under_race& f) {
  for (const std::string& p : {f.path, f.fifo, f.spare}) ::unlink(p.c_str());
  ::rmdir(f.dir.c_str());
}

inline int run_loop(const std::string& name, int runs, int seconds, long limit_ms) {
  const scenario* s = nullptr;
  for (const scenario& candidate : scenarios) {
    if (name == candidate.name) s = &candidate;
  }
  if (!s) return -1;
  file_under_race f;
  if (s->needs_file && !prepare_file(f)) {
    std::cout << "loop.failed=1\nloop.failure=no file: CUSHIM_CUDNN_PATH must name the fixture to copy\n";
    return 0;
  }
  const std::uint64_t seed = std::uint64_t(now_us()) ^ (std::uint64_t(::getpid()) << 32);
  random_numbers r{seed | 1};
  std::cout << "loop.scenario=" << name << "\nloop.seed=" << seed << '\n';
  const long long end = now_us() + static_cast<long long>(seconds) * 1000000;
  int done = 0;
  run_result failure;
  std::map<std::string, int> answers;  // the children's first lines, counted
  while (done < runs && now_us() < end) {
    run_result one = run_once(*s, f, r, limit_ms);
    if (!one.how.empty()) {
      failure = one;
      failure.how = "run " + std::to_string(done + 1) + ": " + one.how;
      break;
    }
    ++answers[one.output.substr(0, one.output.find('\n'))];
    ++done;
  }
  for (const auto& [answer, count] : answers) std::cout << "loop.answer=" << count << " x " << answer << '\n';
  if (s->needs_file) remove_file(f);
  std::string said = failure.output;
  for (char& c : said) {
    if (c == '\n') c = ' ';
  }
  std::cout << "loop.runs=" << done << "\nloop.failed=" << (failure.how.empty() ? 0 : 1) << '\n';
  if (!failure.how.empty()) std::cout << "loop.failure=" << failure.how << ": " << said << '\n';
  return 0;
}

}  // namespace race
