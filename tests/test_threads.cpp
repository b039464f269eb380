// First calls from many threads at once: each library is searched exactly once and every thread
// sees the same result for the same function. cushim_probe --mode threads N (32, then 64) does the
// racing in a fresh process (loading happens once a process); each scenario runs several times because a
// race shows up only sometimes. The hostile races of issue 33 (fork, cancellation, a file changed
// under the load) run in loops of fresh processes: cushim_probe --mode loop (at the end).
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "support/probe.hpp"
#include "support/process.hpp"
#include "support/temp_tree.hpp"

namespace {

constexpr int runs_per_scenario = 5;

// The functions cushim_probe's threads call first, as it names them in distinct.* lines.
const std::set<std::string> racing_calls = {"available",
                                            "cudaGetDeviceCount",
                                            "cudaRuntimeGetVersion",
                                            "cudnnConvolutionForward",
                                            "cudnnCreate",
                                            "cudnnGetCudartVersion",
                                            "cudnnGetErrorString",
                                            "cudnnGetVersion",
                                            "explain",
                                            "status_of"};

std::string fixture(const std::string& folder, const std::string& file) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder + "/" + file;
}

struct expected {
  std::string cudnn_path, cudart_path;
  std::string cudnn_version;  // what cudnnGetVersion returned
  std::string cudnn_create;   // cudnnCreate's status; not checked when empty
  std::string error_string;   // cudnnGetErrorString(CUDNN_STATUS_SUCCESS)
  std::string device_count;   // cudaGetDeviceCount's "status|count"; not checked when empty
};

void race(const test_support::environment& env, const expected& want) {
  for (int run = 1; run <= 2 * runs_per_scenario; ++run) {
    const char* threads = run % 2 ? "32" : "64";
    CAPTURE(run);
    CAPTURE(threads);
    test_support::probe_call call;
    call.args = {"--mode", "threads", threads};
    call.env = env;
    test_support::probe_output out = test_support::run_probe(call);

    CHECK(out.get("searches.cudnn") == "1");
    CHECK(out.get("searches.cudart") == "1");
    CHECK(out.get("searches.other") == "0");
    std::set<std::string> reported;
    for (const auto& [key, value] : out.items) {
      if (key.rfind("distinct.", 0) != 0) continue;
      CAPTURE(key);
      CHECK(value == "1");
      reported.insert(key.substr(9));
    }
    CHECK(reported == racing_calls);
    CHECK(out.get("cudnn.path") == want.cudnn_path);
    CHECK(out.get("cudart.path") == want.cudart_path);
    CHECK(out.get("value.cudnnGetVersion") == want.cudnn_version);
    if (!want.cudnn_create.empty()) CHECK(out.get("value.cudnnCreate") == want.cudnn_create);
    if (!want.device_count.empty()) CHECK(out.get("value.cudaGetDeviceCount") == want.device_count);
    CHECK(out.get("value.cudnnGetErrorString") == want.error_string);
  }
}

}  // namespace

TEST_CASE("racing first calls with the fake libraries named by CUSHIM_CUDNN_PATH / CUSHIM_CUDART_PATH") {
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  env["CUSHIM_CUDART_PATH"] = fixture("cudart_good", CUSHIM_CUDART_FILE);
  race(env, {fixture("cudnn_good", CUSHIM_CUDNN_FILE), fixture("cudart_good", CUSHIM_CUDART_FILE),
             std::to_string(CUDNN_VERSION), "0", "CUDNN_STATUS_SUCCESS (fake)", ""});
}

TEST_CASE("racing first calls with the real libraries found by the normal search") {
  std::string real_cudnn = test_support::ldconfig_path_of(CUSHIM_CUDNN_FILE);
  std::string real_cudart = test_support::ldconfig_path_of(CUSHIM_CUDART_FILE);
  REQUIRE(real_cudnn != "");
  REQUIRE(real_cudart != "");
  // cudnnCreate's status depends on the machine's driver and GPU; distinct.cudnnCreate=1 still holds.
  race(test_support::clean_environment(),
       {real_cudnn, real_cudart, std::to_string(CUDNN_VERSION), "", "CUDNN_STATUS_SUCCESS", ""});
}

TEST_CASE("racing first calls while a FIFO named libcuda.so.1 is where the system loader looks: every call returns") {
  std::string real_cudnn = test_support::ldconfig_path_of(CUSHIM_CUDNN_FILE);
  std::string real_cudart = test_support::ldconfig_path_of(CUSHIM_CUDART_FILE);
  REQUIRE(real_cudnn != "");
  REQUIRE(real_cudart != "");
  test_support::temp_tree tree;
  tree.make_fifo("llp/libcuda.so.1");
  test_support::environment env = test_support::clean_environment();
  env["LD_LIBRARY_PATH"] = tree.path("llp");
  // The calls that would load the driver get cushim's "unavailable" answer; the others reach cuDNN.
  race(env, {real_cudnn, real_cudart, std::to_string(CUDNN_VERSION), std::to_string(int(CUDNN_STATUS_NOT_INITIALIZED)),
             "CUDNN_STATUS_SUCCESS", std::to_string(int(cudaErrorSharedObjectInitFailed)) + "|0"});
}

TEST_CASE("racing first calls when the override is an empty folder: every thread gets the fallback") {
  test_support::temp_tree empty;
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = empty.root();
  env["CUSHIM_CUDART_PATH"] = empty.root();
  race(env, {"", "", "0", std::to_string(int(CUDNN_STATUS_NOT_INITIALIZED)),
             "cushim: cuDNN is unavailable; cushim::explain() says why and what to do", ""});
}

TEST_CASE("fork() while another thread loads cuDNN: the child sees the load finished, not half of it") {
  test_support::probe_call call;
  call.args = {"--mode", "fork"};
  // Under TSan: the child inherits the loading thread's std::thread but not the thread, which TSan
  // would report as leaked when the child exits (exit code 66).
  const char* tsan = std::getenv("TSAN_OPTIONS");
  call.env["TSAN_OPTIONS"] = (tsan ? std::string(tsan) + ":" : std::string()) + "report_thread_leaks=0";
  test_support::probe_output out = test_support::run_probe(call);
  INFO(out.text);
  CHECK(out.get("child.exit") == "0");  // a child waiting on the parent's load lock is ended by its alarm
  CHECK(out.get("child.cudnn.code") == "ok");
  CHECK(out.get("child.cudnn.attempts") == out.get("parent.cudnn.attempts"));
  CHECK(out.get("parent.cudnn.code") == "ok");
}

namespace {

// A hostile mode of cushim_probe (tests/probe/hostile_modes.hpp) with this environment.
test_support::probe_output run_mode(const std::string& mode,
                                    test_support::environment env = test_support::clean_environment()) {
  test_support::probe_call call;
  call.args = {"--mode", mode};
  call.env = std::move(env);
  // Forked children inherit std::threads they do not run, which TSan reports as leaked (exit 66).
  const char* tsan = std::getenv("TSAN_OPTIONS");
  call.env["TSAN_OPTIONS"] = (tsan ? std::string(tsan) + ":" : std::string()) + "report_thread_leaks=0";
  return test_support::run_probe(call);  // a deadlock ends in its 20 s limit, and fails
}

// Under ThreadSanitizer a probe child can wait forever in TSan's own allocator: seen (1 run in 80
// here, once in CI) in __sanitizer::SizeClassAllocator64::GetFromAllocator, on a lock the other
// loading thread held at the fork, since GCC 12's TSan does not lock its allocator around fork().
// That child ends in its time limit and is reported as such; that cushim's own locks let both
// children finish is the default build's check, and TSan's is that the two loads do not race.
bool child_waited_in_tsan_allocator(const test_support::probe_output& out, const std::string& lib) {
#if defined(__SANITIZE_THREAD__)
  if (out.get(lib + ".code") != "load_failed") return false;
  for (const std::string& a : out.all(lib + ".attempt")) {
    if (a.find("|crashed|did not finish in 4000 ms while") != std::string::npos) return true;
  }
#else
  (void)out;
  (void)lib;
#endif
  return false;
}

}  // namespace

TEST_CASE("two first loads at once, each probing its candidates in a child: neither waits for the other") {
  test_support::probe_output out = run_mode("two-first-loads");
  INFO(out.text);
  for (const std::string lib : {"cudnn", "cudart"}) {
    if (child_waited_in_tsan_allocator(out, lib)) {
      MESSAGE(lib << ": a probe child waited in ThreadSanitizer's allocator (not a lock of cushim's)");
      continue;
    }
    CHECK(out.get(lib + ".code") == "ok");
  }
}

TEST_CASE("a probe child made while another thread loads a sub-library is not left waiting for cushim's dl lock") {
  test_support::temp_tree tree;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_tree")) {
    tree.copy_file(entry.path().string(), entry.path().filename().string());
  }
  const std::string cnn = "libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR);
  tree.copy_file(fixture("cnn_slow_constructor", cnn), cnn);  // its constructor takes a second
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = tree.root();
  test_support::probe_output out = run_mode("probe-while-sublibrary-loads", env);
  INFO(out.text);
  CHECK(out.get("cnn_loaded_meanwhile") == "yes");
  CHECK(out.get("cudart.code") == "ok");
  for (const std::string& a : out.all("cudart.attempt")) CHECK(a.find("|crashed|") == std::string::npos);
}

TEST_CASE("fork() while another thread makes a report: the child finds the report's locks free") {
#if defined(__SANITIZE_ADDRESS__) || defined(CUSHIM_PROGRAMS_UNDER_ASAN)  // the probe's build
  // Seen: the child waits in __sanitizer::SizeClassAllocator64::GetFromAllocator, on a lock the
  // reporting thread held at the fork. The default and TSan builds run this case.
  MESSAGE(
      "skipped under AddressSanitizer: GCC 12's ASan allocator is not locked around fork(), so a child "
      "of a process whose other thread allocates can wait on its lock forever (a lock not cushim's)");
  return;
#endif
  test_support::temp_tree tree;
  tree.copy_file(fixture("cudnn_good", CUSHIM_CUDNN_FILE), CUSHIM_CUDNN_FILE);
  std::string path = tree.root();
  // Listed by the report, after the copy in use (one environment string holds at most 128 KiB).
  for (int i = 0; i < 10000; ++i) path += ":/n" + std::to_string(i);
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_SEARCH_PATH"] = path;
  test_support::probe_output out = run_mode("fork-during-explain", env);
  INFO(out.text);
  CHECK(out.get("stuck_children") == "0");
}

TEST_CASE("fork() while another thread resolves a symbol: the child finds cushim's dl lock free") {
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  test_support::probe_output out = run_mode("fork-during-resolve", env);
  INFO(out.text);
  CHECK(out.get("stuck_children") == "0");
}

TEST_CASE("fork() while one thread loads and another waits at the fork gate: the child starts afresh") {
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  env["CUSHIM_CUDART_PATH"] = fixture("cudart_good", CUSHIM_CUDART_FILE);
  test_support::probe_output out = run_mode("fork-with-gate-waiter", env);
  INFO(out.text);
  CHECK(out.get("child.exit") == "0");
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudart.code") == "ok");
}

TEST_CASE("a signal handler that calls cuDNN early in the main thread's first call gets the fallback, once") {
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  test_support::probe_output out = run_mode("signal-in-first-call", env);
  INFO(out.text);
  CHECK(out.get("handler.cudnnGetVersion") == "0");
  CHECK(out.get("main.cudnnGetVersion") == std::to_string(CUDNN_VERSION));
  CHECK(out.get("then.cudnnGetVersion") == std::to_string(CUDNN_VERSION));
}

// ASan's stack poisoning survives pthread_cancel's unwinding, and its own sigaltstack interceptor
// then trips on it (google/sanitizers#1399: "CHECK failed ... kCurrentStackFrameMagic"); with
// its fake stack the frames are not on the thread's stack. No effect without ASan.
test_support::environment for_cancellation(test_support::environment env) {
  std::string& asan = env["ASAN_OPTIONS"];
  asan += (asan.empty() ? "" : ":") + std::string("detect_stack_use_after_return=1");
  return env;
}

TEST_CASE("a thread that ends in the log callback during the first load unwinds; the next call loads cuDNN") {
  for (const char* mode : {"exit-in-log", "cancel-in-log"}) {
    CAPTURE(mode);
    test_support::environment env = for_cancellation(test_support::clean_environment());
    env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
    test_support::probe_output out = run_mode(mode, env);
    INFO(out.text);
    CHECK(out.get("thread.ended") == (std::string(mode) == "exit-in-log" ? "exited" : "cancelled"));
    CHECK_FALSE(out.has("thread.cudnnGetVersion"));
    CHECK(out.get("main.cudnnGetVersion") == std::to_string(CUDNN_VERSION));
    CHECK(out.get("cudnn.code") == "ok");
  }
}

TEST_CASE("a thread cancelled while a probe child runs unwinds, and the child is ended and reaped") {
  test_support::environment env = for_cancellation(test_support::clean_environment());
  env["CUSHIM_CUDNN_PATH"] = fixture("crashing_loop", CUSHIM_CUDNN_FILE);  // never returns from cudnnGetVersion
  test_support::probe_output out = run_mode("cancel-in-probe", env);
  INFO(out.text);
  CHECK(out.get("thread.ended") == "cancelled");
  CHECK(out.get("children_left") == "none");
}

// --- Races repeated in fresh processes (cushim_probe --mode loop, tests/probe/race_loops.hpp) -----
// Each loop runs its scenario at most loop_runs times or loop_seconds seconds, each run in a fresh
// child with its own time limit, and fails at the first run that hangs, dies of a signal or answers
// wrong; fewer than loop_min_runs runs in the time (a machine too slow to race) fails too. Under the
// sanitizers a run costs ten times as much, and the loops stop sooner (the TSan stage runs this suite
// alone). scripts/stress.sh runs the same loops for much longer.
namespace {

constexpr int loop_runs = 200;
#if defined(__SANITIZE_ADDRESS__) || defined(CUSHIM_PROGRAMS_UNDER_ASAN) || defined(__SANITIZE_THREAD__)
constexpr int loop_seconds = 5;
#else
constexpr int loop_seconds = 10;
#endif
constexpr int loop_min_runs = 20;

void check_loop(const std::string& scenario, test_support::environment env) {
  test_support::probe_call call;
  call.args = {"--mode",
               "loop",
               scenario,
               "--runs",
               std::to_string(loop_runs),
               "--seconds",
               std::to_string(loop_seconds),
               "--run-limit-ms",
               "5000"};
  call.env = std::move(env);
  call.timeout = std::chrono::seconds(loop_seconds + 30);
  test_support::probe_output out = test_support::run_probe(call);
  INFO(out.text);
  CHECK(out.get("loop.failed") == "0");
  CHECK(std::atoi(out.get("loop.runs").c_str()) >= loop_min_runs);
  MESSAGE(scenario << ": " << out.get("loop.runs") << " runs");
}

}  // namespace

TEST_CASE(
    "fork() while another thread makes its first calls, in fresh processes: every child forked meanwhile finishes") {
#if defined(__SANITIZE_ADDRESS__) || defined(CUSHIM_PROGRAMS_UNDER_ASAN) || defined(__SANITIZE_THREAD__)
  // The children forked while another thread runs allocate and start threads (each load's watcher):
  // GCC 12's ASan allocator is not locked around fork(), and ThreadSanitizer refuses a thread started
  // after a fork with threads (die_after_fork). The default and boost builds run this loop.
  MESSAGE("skipped under the sanitizers: their runtimes do not support a child forked while other threads run");
  return;
#endif
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  env["CUSHIM_CUDART_PATH"] = fixture("cudart_good", CUSHIM_CUDART_FILE);
  check_loop("fork-during-first-calls", env);
}

TEST_CASE(
    "pthread_cancel of a thread inside its first calls, in fresh processes: it unwinds, the others' calls answer") {
  check_loop("cancel-during-first-calls", for_cancellation(test_support::clean_environment()));
}

// The candidate (a copy of the fake cuDNN, which the loop makes the override) changed under its
// first use by this process meanwhile: each child's answer is the copy loaded, of the right version,
// or a refusal that says why (load_failed); never a hang, a signal or another file's answer.
TEST_CASE(
    "a FIFO renamed over the candidate during the first use, in fresh processes: loaded or refused, never a hang") {
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  check_loop("fifo-over-candidate", env);
  check_loop("fifo-flips-candidate", env);
}

TEST_CASE(
    "the candidate cut and written back during the first use, in fresh processes: loaded or refused, never SIGBUS") {
  test_support::environment env = test_support::clean_environment();
  env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  check_loop("candidate-cut", env);
}
