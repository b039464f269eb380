// probe_in_child: a candidate is loaded and called in a child process first, so that one that
// crashes, ends the process or hangs does so there, and is named, instead of taking the program
// (or cushim-doctor) down. The child names each step on its pipe before it takes it. What it runs
// is a probe_request (probe_request.hpp), in a fork on Linux and in options.probe_program on
// Windows (child_process.hpp).
#pragma once

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "../search/dependency_walk.hpp"
#include "../platform/os.hpp"
#include "../search/pinned_load.hpp"
#include "../platform/platform.hpp"
#include "probe_request.hpp"
#include "../search/words/loading.hpp"
#include "../search/state.hpp"
#include CUSHIM_OS_CHILD_PROCESS

namespace cushim {
namespace detail {
namespace {

struct child_probe_settings {
  bool enabled;
  int timeout_ms;
  std::string program;  // the program that serves requests (Windows); empty: none
};

// From the options, or CUSHIM_PROBE_IN_CHILD=1, CUSHIM_PROBE_TIMEOUT_MS and CUSHIM_PROBE_PROGRAM
// when the environment may be read.
inline child_probe_settings child_probe_settings_of(const options& opts) {
  const char* on = opts.use_environment ? platform::get_environment("CUSHIM_PROBE_IN_CHILD") : nullptr;
  const char* ms = opts.use_environment ? platform::get_environment("CUSHIM_PROBE_TIMEOUT_MS") : nullptr;
  const char* program = opts.use_environment ? platform::get_environment("CUSHIM_PROBE_PROGRAM") : nullptr;
  int from_env = ms ? std::atoi(ms) : 0;
  return {opts.probe_in_child || (on && std::string(on) == "1"),
          from_env > 0                ? from_env
          : opts.probe_timeout_ms > 0 ? opts.probe_timeout_ms
                                      : 10000,
          !opts.probe_program.empty() ? opts.probe_program
          : program                   ? program
                                      : ""};
}

// The settings of the options configure() set last (a copy taken under options_mutex).
inline child_probe_settings current_child_probe_settings() {
  options opts;
  {
    std::lock_guard<std::mutex> lock(shim().options_mutex);
    opts = shim().opts;
  }
  return child_probe_settings_of(opts);
}

// In the child: the step it is about to take (step_texts: "while loading", "in cudnnGetVersion").
inline void child_step(int fd, const std::string& where) { platform::write_line(fd, "step " + where); }

constexpr const char* done_step = "done";  // a child's last step, once it took every other

// A request to load a file and do nothing else (a sub-library a library loads by name itself).
constexpr const char* load_only_request = "file";

// In the child of a load_only_request: its steps, and the loader's refusal on a line of its own.
inline void load_file_in_child(const std::string& path, int fd) {
  child_step(fd, step_texts::loading);
  pinned_load load(path);
  if (!load.handle()) platform::write_line(fd, "refused " + (load.changed().empty() ? load.error() : load.changed()));
  child_step(fd, done_step);
}

// Empty when the request passed in a child, or when no child could be made: the candidate is then
// loaded here, as without the option, and a note says so once. Else how the child ended and in
// which step: "crashed with SIGSEGV in cudnnGetVersion, in a child process ...". `refusal` receives
// what the child said of a load the loader refused (a load_only_request's); `load_unfinished`
// whether the child was killed while it loaded, where a FIFO may have kept it waiting.
inline std::string failure_in_child(const probe_request& request, const child_probe_settings& probe,
                                    std::string* refusal = nullptr, bool* load_unfinished = nullptr) {
  // The statics the child's work reads are made now, by this thread: a fork while another thread
  // makes one would leave the child waiting on its guard. The fork itself waits for no pass.
  platform::make_statics_for_child();
  platform::child_run run;
  {
    fork_gate::probe_fork own;
    run = platform::run_in_child(request, probe.program, probe.timeout_ms);
  }
  static std::atomic<bool> noted{false};
  if (!run.ran && !noted.exchange(true)) add_note(notes_of::no_probe_child(run.why_no_child));
  std::size_t refused = run.output.rfind("refused ");
  if (refusal && refused != std::string::npos && (refused == 0 || run.output[refused - 1] == '\n')) {
    *refusal = run.output.substr(refused + 8, run.output.find('\n', refused) - refused - 8);
  }
  if (!run.ran) return {};
  std::size_t at = run.output.rfind("step ");
  std::string step = at == std::string::npos ? step_texts::before_loading
                                             : run.output.substr(at + 5, run.output.find('\n', at) - at - 5);
  if (step == done_step && run.exit_status == 0) return {};
  if (load_unfinished) *load_unfinished = run.timed_out && step == step_texts::loading;
  return attempt_texts::child_failure(run, step, probe.timeout_ms);
}

// What the child made of a candidate (probe_candidate).
struct probe_verdict {
  std::string failure;  // how the child ended; empty when it passed, or when no child could be made
  std::string fifo;     // the FIFO its load waited on, where the system loader looks; or empty
  std::string cause;    // with `fifo`: what the system loader's search met there
};

// A candidate of a library loaded and checked in a child. A child killed while it loaded may have
// waited on a FIFO where the system loader looks for something that load needs: the failure then
// says so, and the FIFO is named instead of the file.
inline probe_verdict probe_candidate(const probe_request& request, const child_probe_settings& probe) {
  probe_verdict v;
  bool load_unfinished = false;
  v.failure = failure_in_child(request, probe, nullptr, &load_unfinished);
  if (load_unfinished) v.fifo = fifo_blocking_load(request.path, v.cause);
  if (!v.fifo.empty()) v.failure += "; " + v.cause;
  return v;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
