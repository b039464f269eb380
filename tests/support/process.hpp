// Runs a program in a child process (posix_spawn, no shell) with an explicit environment and
// captures its output; parses the key=value lines cushim_probe prints.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace test_support {

// Name -> value. The child gets exactly these variables and nothing else.
using environment = std::map<std::string, std::string>;

// A minimal environment, so variables of the machine running the tests (CUDA_HOME, ...) cannot leak in.
// Sanitizer settings pass through: they steer the runtime of an instrumented build, not cushim.
inline environment clean_environment() {
  environment env{{"PATH", "/usr/bin:/bin"}};
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"}) {
    if (const char* value = std::getenv(name)) env[name] = value;
  }
  return env;
}

// The test's own environment, for the rare test that wants inheritance.
inline environment inherited_environment() {
  environment env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::size_t eq = entry.find('=');
    if (eq != std::string::npos) env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return env;
}

struct process_spec {
  std::string program;            // absolute path of the file to execute
  std::vector<std::string> args;  // argv[1..]
  std::string argv0;              // argv[0]; the program path when empty
  environment env = clean_environment();
  std::string working_dir;    // the child's current folder; the test's when empty
  bool merge_stderr = false;  // stderr into the same text as stdout
  std::chrono::milliseconds timeout{60000};
};

struct process_result {
  int exit_code = -1;       // the exit status, or -1 when it did not exit normally
  int term_signal = 0;      // the signal that ended it, if any
  bool timed_out = false;   // killed after spec.timeout
  std::string spawn_error;  // why it could not be started (empty when it was)
  std::string out;
  std::string err;
};

namespace detail {

class fd_pair {
 public:
  fd_pair() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  ~fd_pair() {
    close_read();
    close_write();
  }
  fd_pair(const fd_pair&) = delete;
  fd_pair& operator=(const fd_pair&) = delete;
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() { close_one(fds_[0]); }
  void close_write() { close_one(fds_[1]); }

 private:
  static void close_one(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

// Reads both pipes until they close or the deadline passes; false on timeout.
inline bool drain(fd_pair& out, std::string& out_text, fd_pair& err, std::string& err_text,
                  std::chrono::steady_clock::time_point deadline) {
  char buf[65536];
  for (;;) {
    pollfd fds[2] = {{out.read_end(), POLLIN, 0}, {err.read_end(), POLLIN, 0}};
    if (fds[0].fd < 0 && fds[1].fd < 0) return true;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    int n = ::poll(fds, 2, int(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got > 0) {
        (i == 0 ? out_text : err_text).append(buf, std::size_t(got));
      } else {
        i == 0 ? out.close_read() : err.close_read();
      }
    }
  }
}

// Waits for the child; kills it once the deadline has passed. Returns the wait status.
inline int reap(pid_t pid, std::chrono::steady_clock::time_point deadline, bool& timed_out) {
  int status = 0;
  for (;;) {
    pid_t r = ::waitpid(pid, &status, timed_out ? 0 : WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (!timed_out && std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      ::kill(-pid, SIGKILL);
    } else if (!timed_out) {
      ::usleep(1000);
    }
  }
}

}  // namespace detail

inline process_result run_process(const process_spec& spec) {
  process_result result;
  std::vector<std::string> arg_strings{spec.argv0.empty() ? spec.program : spec.argv0};
  arg_strings.insert(arg_strings.end(), spec.args.begin(), spec.args.end());
  std::vector<std::string> env_strings;
  for (const auto& [name, value] : spec.env) env_strings.push_back(name + "=" + value);
  std::vector<char*> argv, envp;
  for (std::string& s : arg_strings) argv.push_back(s.data());
  for (std::string& s : env_strings) envp.push_back(s.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  detail::fd_pair out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write_end(), 1);
  posix_spawn_file_actions_adddup2(&actions, spec.merge_stderr ? out.write_end() : err.write_end(), 2);
  if (!spec.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.working_dir.c_str());
  // The child starts with no blocked signals and the default SIGPIPE, whatever the test runner set.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, pipe_only;
  sigemptyset(&none);
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &pipe_only);
  // A process group of its own, so a timeout also ends what it started (a probe child that hangs).
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, spec.program.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  out.close_write();
  err.close_write();
  if (rc != 0) {
    result.spawn_error = spec.program + ": " + std::strerror(rc);
    return result;
  }
  auto deadline = std::chrono::steady_clock::now() + spec.timeout;
  bool drained = detail::drain(out, result.out, err, result.err, deadline);
  result.timed_out = !drained;
  if (!drained) ::kill(-pid, SIGKILL);  // the whole group: a child it left holding the output too
  int status = detail::reap(pid, deadline, result.timed_out);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return result;
}

// The key=value lines of a program's output, in order, up to a stop line; the rest kept as text.
struct key_values {
  std::vector<std::pair<std::string, std::string>> items;
  std::string rest;  // everything after the stop line

  // The first value of key, or "<no KEY>" so that a failed CHECK shows what was missing.
  std::string get(const std::string& key) const {
    for (const auto& [k, v] : items) {
      if (k == key) return v;
    }
    return "<no " + key + ">";
  }
  std::vector<std::string> all(const std::string& key) const {
    std::vector<std::string> values;
    for (const auto& [k, v] : items) {
      if (k == key) values.push_back(v);
    }
    return values;
  }
  bool has(const std::string& key) const { return !all(key).empty(); }
  bool has(const std::string& key, const std::string& value) const {
    for (const auto& [k, v] : items) {
      if (k == key && v == value) return true;
    }
    return false;
  }
};

inline key_values parse_key_values(const std::string& text, const std::string& stop_line = "--- explain") {
  key_values kv;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line == stop_line) {
      kv.rest = start < text.size() ? text.substr(start) : std::string();
      break;
    }
    std::size_t eq = line.find('=');
    if (eq != std::string::npos) kv.items.emplace_back(line.substr(0, eq), line.substr(eq + 1));
  }
  return kv;
}

// One "<lib>.attempt=rule|path|outcome|detail" line, split.
struct attempt_line {
  std::string rule, path, outcome, detail;
};

inline std::vector<attempt_line> attempts_of(const key_values& kv, const std::string& lib = "cudnn") {
  std::vector<attempt_line> attempts;
  for (const std::string& v : kv.all(lib + ".attempt")) {
    attempt_line a;
    std::string* fields[] = {&a.rule, &a.path, &a.outcome};
    std::size_t start = 0;
    for (std::string* f : fields) {
      std::size_t bar = v.find('|', start);
      *f = v.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
      start = bar == std::string::npos ? v.size() : bar + 1;
    }
    a.detail = v.substr(std::min(start, v.size()));  // the detail may itself hold '|'
    attempts.push_back(std::move(a));
  }
  return attempts;
}

}  // namespace test_support

namespace test_support {

// Where the system's own ld.so.cache says `soname` is, as `ldconfig -p` prints it: an oracle
// independent of cushim's cache reader. Empty when it is not in the cache.
inline std::string ldconfig_path_of(const std::string& soname) {
  process_spec spec;
  spec.program = "/sbin/ldconfig";
  spec.args = {"-p"};
  std::string text = run_process(spec).out;
  std::string prefix = "\t" + soname + " (";
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    std::size_t end = text.find('\n', at);
    std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    std::size_t arrow = line.find(" => ");
    if (arrow != std::string::npos) return line.substr(arrow + 4);
  }
  return {};
}

}  // namespace test_support
