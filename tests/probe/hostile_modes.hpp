// cushim_probe's modes for hostile use (issue 23): threads and fork() around the first loads, a
// thread cancelled inside cushim, a signal handler that calls in during the first call, library
// values out of range. Included by cushim_probe.cpp after the implementation (some modes call
// cushim::detail directly), each mode prints key=value lines as the others do.
#pragma once

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

namespace hostile {

// Set by --mode signal-in-first-call: the allocation of cushim's state raises SIGALRM once, in the
// middle of the main thread's first call, while that thread makes the state.
inline std::atomic<bool> alarm_in_state_allocation{false};

}  // namespace hostile

// The program's own operator new (and its delete), for that one allocation; otherwise malloc's.
void* operator new(std::size_t size) {
  if (size == sizeof(cushim::detail::shim_state) && hostile::alarm_in_state_allocation.exchange(false)) {
    ::raise(SIGALRM);
  }
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace hostile {

inline void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

inline cudnnStatus_t convolution() {
  return cudnnConvolutionForward(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                 CUDNN_CONVOLUTION_FWD_ALGO_GEMM, nullptr, 0, nullptr, nullptr, nullptr);
}

// The code, and each attempt's result and detail: what a failed check shows as its reason.
inline void print_code(const char* key, cushim::library lib) {
  const cushim::status& st = cushim::status_of(lib);
  std::cout << key << ".code=" << cushim::to_string(st.code) << '\n';
  for (const cushim::attempt& a : st.attempts) {
    std::cout << key << ".attempt=" << a.path << '|' << cushim::to_string(a.result) << '|' << a.detail << '\n';
  }
}

// Runs `work` in a forked child, killed after 3 s (also when it hangs inside fork() itself, in a
// fork handler); "0" when it exited 0, else how it ended.
inline std::string in_forked_child(const std::function<void()>& work) {
  std::fflush(nullptr);
  pid_t child = ::fork();
  if (child == 0) {
    work();
    ::_exit(0);
  }
  int status = 0;
  for (int waited_ms = 0; ::waitpid(child, &status, WNOHANG) == 0; ++waited_ms) {
    if (waited_ms == 3000) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return "killed after 3 s";
    }
    sleep_ms(1);
  }
  if (WIFEXITED(status)) return std::to_string(WEXITSTATUS(status));
  return "signal " + std::to_string(WTERMSIG(status));
}

// --- Two first loads at once, each probing its candidates in a child ---------------------------
inline std::atomic<int> searches_begun{0};

// Holds each search until both have begun, so that each load forks while the other is in progress.
inline void hold_until_both_search(std::string_view line, void*) {
  if (line.find("searching for") == std::string_view::npos) return;
  ++searches_begun;
  for (int i = 0; i < 400 && searches_begun.load() < 2; ++i) sleep_ms(5);
}

inline int two_first_loads(cushim::options opts) {
  opts.probe_in_child = true;
  opts.probe_timeout_ms = 4000;
  opts.log = hold_until_both_search;
  cushim::configure(opts);
  std::thread cudnn([] { cudnnGetVersion(); });
  std::thread cudart([] {
    int count = 0;
    cudaGetDeviceCount(&count);
  });
  cudnn.join();
  cudart.join();
  print_code("cudnn", cushim::library::cudnn);
  print_code("cudart", cushim::library::cudart);
  return 0;
}

// --- A probe child while another thread loads a sub-library under cushim's dl lock -------------
// CUSHIM_CUDNN_PATH names a tree whose libcudnn_cnn's constructor takes a second. The runtime's
// search, past its first candidate (and the dl calls before it), starts that load on another
// thread, then goes on to probe the next candidate in a child.
inline std::thread cnn_loading;
inline bool cnn_load_started = false;

inline void start_cnn_load_in_cudart_search(std::string_view line, void*) {
  if (line.find("cushim: CUDA runtime: ") != 0 || line.find(": absent") == std::string_view::npos ||
      cnn_loading.joinable()) {
    return;
  }
  cnn_load_started = true;
  cnn_loading = std::thread([] { convolution(); });
  sleep_ms(200);  // into the cnn constructor, which runs inside cushim's dlopen
}

inline int probe_while_sublibrary_loads(cushim::options opts) {
  opts.probe_in_child = true;
  opts.probe_timeout_ms = 3000;
  opts.log = start_cnn_load_in_cudart_search;
  cushim::configure(opts);
  cudnnGetVersion();
  int count = 0;
  cudaGetDeviceCount(&count);
  if (cnn_loading.joinable()) cnn_loading.join();
  std::cout << "cnn_loaded_meanwhile=" << (cnn_load_started ? "yes" : "no") << '\n';
  print_code("cudart", cushim::library::cudart);
  for (const cushim::attempt& a : cushim::status_of(cushim::library::cudart).attempts) {
    std::cout << "cudart.attempt=" << a.path << '|' << cushim::to_string(a.result) << '|' << a.detail << '\n';
  }
  return 0;
}

// --- fork() by the program while another thread is inside cushim --------------------------------
// Forks again and again while `busy` runs on another thread; each child makes `child_call` and must
// exit at once. Prints how many children did not.
inline int fork_while(const std::function<void()>& busy, const std::function<void()>& child_call, int at_least) {
  std::atomic<bool> done{false};
  std::thread other([&] {
    busy();
    done = true;
  });
  int forks = 0, stuck = 0;
  std::string first_stuck;
  while (!done.load() || forks < at_least) {
    ++forks;
    std::string ended = in_forked_child(child_call);
    if (ended == "0") continue;
    if (++stuck == 1) first_stuck = ended;
  }
  other.join();
  std::cout << "forks=" << forks << "\nstuck_children=" << stuck << "\nfirst_stuck=" << first_stuck << '\n';
  return 0;
}

// explain() lists the copies the search did not reach (CUSHIM_SEARCH_PATH: the copy in use, then
// thousands of absent folders) under the status's completion lock.
inline int fork_during_explain(cushim::options opts) {
  cushim::configure(opts);
  cudnnGetVersion();
  return fork_while([] { cushim::explain(); }, [] { cushim::status_of(cushim::library::cudnn); }, 1);
}

// A symbol's resolution (dlsym under cushim's dl lock), again and again; each child resolves
// another function, cudnnGetCudartVersion, for the first time.
inline int fork_during_resolve(cushim::options opts) {
  cushim::configure(opts);
  cudnnGetVersion();
  auto resolve_for_a_while = [] {
    for (auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
         std::chrono::steady_clock::now() < end;) {
      cushim::detail::resolve(cushim::library::cudnn, "cudnnGetVersion", "graph", nullptr, nullptr);
    }
  };
  return fork_while(
      resolve_for_a_while, [] { cudnnGetCudartVersion(); }, 20);
}

// One thread loads cuDNN (its log callback holds it 300 ms), the main thread forks meanwhile (the
// fork waits for the load), and a third thread reaches the gate while that fork waits.
inline std::atomic<bool> cudnn_search_begun{false};
inline void hold_cudnn_search(std::string_view line, void*) {
  if (line.find("cushim: cuDNN: searching for") != 0) return;
  cudnn_search_begun = true;
  sleep_ms(300);
}

inline int fork_with_gate_waiter(cushim::options opts) {
  opts.log = hold_cudnn_search;
  cushim::configure(opts);
  std::thread loading([] { cudnnGetVersion(); });
  while (!cudnn_search_begun.load()) std::this_thread::yield();
  std::thread waiter([] {
    sleep_ms(100);
    int version = 0;
    cudaRuntimeGetVersion(&version);
  });
  std::string child = in_forked_child([] { cushim::status_of(cushim::library::cudnn); });
  loading.join();
  waiter.join();
  std::cout << "child.exit=" << child << '\n';
  print_code("cudnn", cushim::library::cudnn);
  print_code("cudart", cushim::library::cudart);
  return 0;
}

// --- A signal handler that calls cuDNN while the main thread is early in its first call ---------
inline std::atomic<long> version_in_handler{-1};

inline int signal_in_first_call() {
  struct sigaction call_in {};
  call_in.sa_handler = [](int) { version_in_handler = long(cudnnGetVersion()); };
  ::sigaction(SIGALRM, &call_in, nullptr);
  alarm_in_state_allocation = true;
  long version = long(cudnnGetVersion());
  std::cout << "handler.cudnnGetVersion=" << version_in_handler.load() << "\nmain.cudnnGetVersion=" << version
            << "\nthen.cudnnGetVersion=" << cudnnGetVersion() << '\n';
  return 0;
}

// --- A thread cancelled inside cushim -----------------------------------------------------------
inline std::atomic<bool> end_thread_once{true};

// The first line of cuDNN's search ends the thread that logs it: pthread_exit, or pthread_cancel
// acted on at once.
inline void exit_in_log(std::string_view line, void*) {
  if (line.find("cushim: cuDNN: searching for") != 0 || !end_thread_once.exchange(false)) return;
  ::pthread_exit(nullptr);
}
inline void cancel_in_log(std::string_view line, void*) {
  if (line.find("cushim: cuDNN: searching for") != 0 || !end_thread_once.exchange(false)) return;
  ::pthread_cancel(::pthread_self());
  ::pthread_testcancel();
}

inline void* first_cudnn_call(void*) {
  std::size_t version = cudnnGetVersion();
  std::cout << "thread.cudnnGetVersion=" << version << '\n';  // never printed when the thread ends in it
  return nullptr;
}

// A thread ended in the log callback during its first load; then this thread calls cuDNN.
inline int cancel_in_log_callback(cushim::options opts, bool by_cancel) {
  opts.log = by_cancel ? cancel_in_log : exit_in_log;
  cushim::configure(opts);
  pthread_t thread;
  ::pthread_create(&thread, nullptr, first_cudnn_call, nullptr);
  void* result = nullptr;
  ::pthread_join(thread, &result);
  std::cout << "thread.ended=" << (result == PTHREAD_CANCELED ? "cancelled" : "exited") << '\n';
  std::cout << "main.cudnnGetVersion=" << cudnnGetVersion() << '\n';
  print_code("cudnn", cushim::library::cudnn);
  return 0;
}

// A thread cancelled while it waits for a probe child (CUSHIM_CUDNN_PATH names a copy that never
// returns from cudnnGetVersion): the thread ends, and so does its child.
inline int cancel_in_probe(cushim::options opts) {
  opts.probe_in_child = true;
  opts.probe_timeout_ms = 60000;
  cushim::configure(opts);
  pthread_t thread;
  ::pthread_create(&thread, nullptr, first_cudnn_call, nullptr);
  sleep_ms(500);
  ::pthread_cancel(thread);
  void* result = nullptr;
  ::pthread_join(thread, &result);
  std::cout << "thread.ended=" << (result == PTHREAD_CANCELED ? "cancelled" : "returned") << '\n';
  errno = 0;
  pid_t left = ::waitpid(-1, nullptr, WNOHANG);
  std::cout << "children_left=" << (left < 0 && errno == ECHILD ? "none" : "some") << '\n';
  return 0;
}

// --- Library values out of range ----------------------------------------------------------------
inline int bad_library_values() {
  for (int value : {cushim::library_count, 99, -1}) {  // just past the last library, far past, negative
    const cushim::library lib = cushim::library(value);
    const std::string p = "library(" + (value == cushim::library_count ? "count" : std::to_string(value)) + ")";
    const cushim::status& st = cushim::status_of(lib);
    cushim::options opts;
    opts.files[lib] = "/nowhere";
    const cushim::options& read_only = opts;
    std::cout << p << ".available=" << cushim::available(lib) << '\n'
              << p << ".error_of=" << cushim::to_string(cushim::error_of(lib)) << '\n'
              << p << ".to_string=" << cushim::to_string(lib) << '\n'
              << p << ".status.code=" << cushim::to_string(st.code) << '\n'
              << p << ".status.problems=" << st.problems.size() << '\n'
              << p << ".version_text=" << cushim::diagnostics::version_text(lib, 91900) << '\n'
              << p << ".display_name=" << cushim::diagnostics::display_name(lib) << '\n'
              << p << ".name_in_sentence=" << cushim::diagnostics::name_in_sentence(lib) << '\n'
              << p << ".files=" << read_only.files[lib] << '\n';
    for (const cushim::problem& pr : st.problems) std::cout << p << ".problem=" << pr.what << '\n';
  }
  print_code("cudnn", cushim::library::cudnn);
  return 0;
}

// The modes above by name; -1 for a name that is none of them.
inline int run_mode(const std::string& mode, const cushim::options& opts) {
  if (mode == "two-first-loads") return two_first_loads(opts);
  if (mode == "probe-while-sublibrary-loads") return probe_while_sublibrary_loads(opts);
  if (mode == "fork-during-explain") return fork_during_explain(opts);
  if (mode == "fork-during-resolve") return fork_during_resolve(opts);
  if (mode == "fork-with-gate-waiter") return fork_with_gate_waiter(opts);
  if (mode == "signal-in-first-call") return signal_in_first_call();
  if (mode == "exit-in-log") return cancel_in_log_callback(opts, false);
  if (mode == "cancel-in-log") return cancel_in_log_callback(opts, true);
  if (mode == "cancel-in-probe") return cancel_in_probe(opts);
  if (mode == "bad-library-values") return bad_library_values();
  return -1;
}

}  // namespace hostile
