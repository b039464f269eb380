// cushim_probe: runs one loading scenario in a fresh process (cushim loads once per process) and
// prints what cushim saw as key=value lines, for test_search_order and test_threads. Built twice:
// cushim_probe (cuDNN and the runtime) and cushim_probe_all (every library opted into), which also
// makes one call into each opted-in library.
//
//   cushim_probe [--search-dir DIR]... [--no-env] [--fail-fast] [--cudnn-file P] [--cudart-file P]
//                [--library-file LIBRARY P]
//                [--policy same_major|same_major_newer_minor] [--configure-late] [--log] [--explain-from-log]
//                [--reenter-from-log] [--configure-again] [--create-first] [--json]
//                [--call-convolution] [--convolution-first] [--explain-first] [--preload FILE]...
//                [--crash-handler] [--sigchld ignore|reap] [--log-throws-on-missing] [--configure-from-log]
//                [--mode status | --mode threads N | --mode fork | --mode <a mode of hostile_modes.hpp>
//                 | --mode loop <a scenario of race_loops.hpp> [--runs N] [--seconds S] [--run-limit-ms T]]
// --preload loads FILE with dlopen before cushim starts, as another framework in the process would.
// --crash-handler installs SIGSEGV/SIGABRT handlers that exit 7, as a host's crash reporter would.
// --sigchld ignore sets SIGCHLD to SIG_IGN (children are reaped by the kernel); --sigchld reap
// installs a SIGCHLD handler that reaps every child, as some hosts do.
// --explain-first makes a report before any other call.
// --convolution-first calls cudnnGetVersion and cudnnConvolutionForward before asking for any
// status, and says whether cuDNN's cnn sub-library was in the process before and after.
// Exit status: 0 when it ran (whatever it found), 2 on bad arguments.
#include "../support/opt_in_headers.hpp"

#define CUSHIM_IMPLEMENTATION
#include <cushim/diagnostics.hpp>

#include <dlfcn.h>
#ifndef _WIN32
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifndef _WIN32
#include "hostile_modes.hpp"
#include "race_loops.hpp"
#endif

namespace {

struct arguments {
  cushim::options opts;
  bool configure = false;  // an option was given: call configure()
  bool configure_late = false;
  bool call_convolution = false;
  bool convolution_first = false;
  bool log_to_stderr = false;
  bool explain_from_log = false;
  bool reenter_from_log = false;
  bool create_first = false;
  bool configure_again = false;
  bool print_json = false;
  std::vector<std::string> calls;  // --call NAME
  bool threads_mode = false;
  bool fork_mode = false;
  bool crash_handler = false;
  bool explain_first = false;
  std::string sigchld;        // "ignore", "reap" or empty
  std::string hostile_mode;   // a mode of hostile_modes.hpp
  std::string loop_scenario;  // a scenario of race_loops.hpp, with its bounds
  int loop_runs = 200;
  int loop_seconds = 60;
  long loop_run_limit_ms = 5000;
  int thread_count = 0;
  std::vector<std::string> preloads;
};

// A log callback that throws on the line about a function the loaded copy lacks (after the load).
void throw_on_missing(std::string_view line, void*) {
  std::cerr << line << '\n';
  if (line.find("is not exported by") != std::string_view::npos) throw std::runtime_error("the log is full");
}

// A log callback that calls configure() on every line: each refusal is itself a line.
void configure_from_log(std::string_view line, void*) {
  std::cerr << line << '\n';
  cushim::options opts;
  opts.log = configure_from_log;
  cushim::configure(opts);
}

// The library whose to_string() is `key`.
bool library_named(const std::string& key, cushim::library& lib) {
  for (int i = 0; i < cushim::library_count; ++i) {
    if (key == cushim::to_string(cushim::library(i))) {
      lib = cushim::library(i);
      return true;
    }
  }
  return false;
}

bool parse_arguments(int argc, char** argv, arguments& a) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v, path;
    cushim::library lib = cushim::library::cudnn;
    if (arg == "--search-dir" && value(v)) {
      a.opts.search_dirs.push_back(v);
    } else if (arg == "--no-env") {
      a.opts.use_environment = false;
    } else if (arg == "--fail-fast") {
      a.opts.fail_fast = true;
    } else if (arg == "--cudnn-file" && value(v)) {
      a.opts.files[cushim::library::cudnn] = v;
    } else if (arg == "--cudart-file" && value(v)) {
      a.opts.files[cushim::library::cudart] = v;
    } else if (arg == "--library-file" && value(v) && value(path) && library_named(v, lib)) {
      a.opts.files[lib] = path;
    } else if (arg == "--policy" && value(v) && (v == "same_major" || v == "same_major_newer_minor")) {
      a.opts.policy =
          v == "same_major" ? cushim::version_policy::same_major : cushim::version_policy::same_major_newer_minor;
    } else if (arg == "--call-convolution") {
      a.call_convolution = true;
    } else if (arg == "--convolution-first") {
      a.convolution_first = true;
      continue;
    } else if (arg == "--configure-late") {
      a.configure_late = true;
      continue;
    } else if (arg == "--preload" && value(v)) {
      a.preloads.push_back(v);
      continue;
    } else if (arg == "--crash-handler") {
      a.crash_handler = true;
      continue;
    } else if (arg == "--sigchld" && value(v) && (v == "ignore" || v == "reap")) {
      a.sigchld = v;
      continue;
    } else if (arg == "--explain-first") {
      a.explain_first = true;
      continue;
    } else if (arg == "--log-throws-on-missing") {
      a.opts.log = throw_on_missing;
    } else if (arg == "--configure-from-log") {
      a.opts.log = configure_from_log;
    } else if (arg == "--log") {
      a.log_to_stderr = true;
      continue;
    } else if (arg == "--json") {
      a.print_json = true;
      continue;
    } else if (arg == "--call" && value(v)) {
      a.calls.push_back(v);
      continue;
    } else if (arg == "--explain-from-log") {
      a.explain_from_log = true;
    } else if (arg == "--reenter-from-log") {
      a.reenter_from_log = true;
    } else if (arg == "--configure-again") {
      a.configure_again = true;
    } else if (arg == "--create-first") {
      a.create_first = true;
      continue;
    } else if (arg == "--mode" && i + 2 < argc && std::string(argv[i + 1]) == "loop") {
      a.loop_scenario = argv[i + 2];
      i += 2;
      continue;
    } else if (arg == "--runs" && value(v) && std::atoi(v.c_str()) > 0) {
      a.loop_runs = std::atoi(v.c_str());
      continue;
    } else if (arg == "--seconds" && value(v) && std::atoi(v.c_str()) > 0) {
      a.loop_seconds = std::atoi(v.c_str());
      continue;
    } else if (arg == "--run-limit-ms" && value(v) && std::atoi(v.c_str()) > 0) {
      a.loop_run_limit_ms = std::atol(v.c_str());
      continue;
    } else if (arg == "--mode" && value(v)) {
      a.threads_mode = v == "threads";
      a.fork_mode = v == "fork";
      if (!a.threads_mode && !a.fork_mode && v != "status") a.hostile_mode = v;
      std::string count;
      if (a.threads_mode && !value(count)) return false;
      a.thread_count = std::atoi(count.c_str());
      if (a.threads_mode && (a.thread_count <= 0 || a.thread_count > 1024)) return false;
      continue;
    } else {
      return false;
    }
    a.configure = true;  // reached only by the options that go to cushim::configure()
  }
  return true;
}

// Values go on one line each: a newline would start a bogus key.
std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

void log_to_stderr(std::string_view line, void*) { std::cerr << line << '\n'; }

// A log callback that asks for the whole explanation at every event, as a logging framework
// might: it must see the state so far, not deadlock on the load in progress.
void explain_from_log(std::string_view line, void*) {
  std::cerr << line << "\n  explain: " << cushim::explain().size() << " chars, json: " << cushim::explain_json().size()
            << " chars\n";
}

// A log callback that calls back into cushim: on a refused configure() and on a missing
// function, explain() (which loads the CUDA runtime, not loaded yet); while cuDNN is loading, a
// cuDNN function, whose re-entrant call gets a fallback that must not stay in its slot.
std::string reentrant_text;
void reenter_from_log(std::string_view line, void*) {
  std::cerr << line << '\n';
  if (line.find("configure() was called after") != std::string_view::npos ||
      line.find("is not exported by") != std::string_view::npos) {
    std::cerr << "  explain: " << cushim::explain().size() << " chars\n";
  }
  if (line.find("cushim: cuDNN: searching for") == 0) reentrant_text = cudnnGetErrorString(CUDNN_STATUS_SUCCESS);
}

// What fake_library_identity() of the loaded copy returns; empty for the real libraries.
std::string identity_of(const std::string& path) {
  if (path.empty()) return {};
  void* h = ::dlopen(path.c_str(), RTLD_NOLOAD | RTLD_NOW);  // the copy cushim loaded; never a new one
  if (!h) return {};
  std::string identity;
  if (void* sym = ::dlsym(h, "fake_library_identity")) {
    const char* (*fn)(void);
    std::memcpy(&fn, &sym, sizeof fn);
    identity = fn();
  }
  ::dlclose(h);
  return identity;
}

// Which loader holds the copy in use: "Boost.DLL" when a boost::dll::shared_library loaded it
// (CUSHIM_USE_BOOST_DLL), else "system" (dlopen / LoadLibraryExW, or a copy found already loaded).
std::string loader_of(cushim::library lib) {
  const cushim::detail::library_state& state = cushim::detail::state_of(lib);
  if (!state.handle) return {};
#ifdef CUSHIM_USE_BOOST_DLL
  if (cushim::detail::platform::boost_dll::library_of(state.handle)) return "Boost.DLL";
#endif
  return "system";
}

void print_status(const char* prefix, cushim::library lib) {
  const cushim::status& st = cushim::status_of(lib);
  std::string p = prefix;
  std::cout << p << ".code=" << cushim::to_string(st.code) << '\n'
            << p << ".path=" << one_line(st.path) << '\n'
            << p << ".found_by=" << one_line(st.found_by) << '\n'
            << p << ".version=" << st.version << '\n'
            << p << ".version_source=" << one_line(st.version_source) << '\n';
  for (const cushim::attempt& a : st.attempts) {
    std::cout << p << ".attempt=" << one_line(a.rule) << '|' << one_line(a.path) << '|' << cushim::to_string(a.result)
              << '|' << one_line(a.detail) << '\n';
  }
  for (const cushim::problem& pr : st.problems) {
    std::cout << p << ".problem=" << cushim::to_string(pr.code) << '|' << (pr.fatal ? 1 : 0) << '|' << one_line(pr.what)
              << '\n';
  }
  for (const cushim::attempt& other : st.other_copies) {
    std::cout << p << ".other=" << one_line(other.rule) << '|' << one_line(other.path) << '|'
              << cushim::to_string(other.result) << '\n';
  }
  for (const cushim::sublibrary& sub : st.sublibraries) {
    std::cout << p << ".sublibrary=" << sub.file_name << '|' << (sub.usable ? 1 : 0) << '|' << (sub.preloaded ? 1 : 0)
              << '|' << sub.version << '|' << one_line(sub.path) << '|' << one_line(sub.problem) << '\n';
    if (!sub.known) std::cout << p << ".unknown_sublibrary=" << sub.file_name << '\n';
    for (const cushim::shadowing_copy& c : sub.shadowing) {
      std::cout << p << ".shadowing=" << sub.file_name << '|' << one_line(c.path) << '|' << (c.other_release ? 1 : 0)
                << '|' << one_line(c.why) << '\n';
    }
  }
  std::string loader = loader_of(lib);
  if (!loader.empty()) std::cout << p << ".loader=" << loader << '\n';
  std::string identity = identity_of(st.path);
  if (!identity.empty()) std::cout << p << ".identity=" << identity << '\n';
}

bool in_process(const std::string& file) {
  void* h = ::dlopen(file.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h) ::dlclose(h);
  return h != nullptr;
}

cudnnStatus_t call_convolution() {
  return cudnnConvolutionForward(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                 CUDNN_CONVOLUTION_FWD_ALGO_GEMM, nullptr, 0, nullptr, nullptr, nullptr);
}

// One call into each library this probe opts into, as "call.<library>=" its result.
void print_opted_in_calls() {
#ifdef CUSHIM_CUBLAS
  cublasHandle_t blas = nullptr;
  cublasStatus_t blas_status = cublasCreate(&blas);
  if (blas_status == CUBLAS_STATUS_SUCCESS) cublasDestroy(blas);
  std::cout << "call.cublas=" << int(blas_status) << '\n';
  cublasLtHandle_t lt = nullptr;
  cublasStatus_t lt_status = cublasLtCreate(&lt);
  if (lt_status == CUBLAS_STATUS_SUCCESS) cublasLtDestroy(lt);
  std::cout << "call.cublasLt=" << int(lt_status) << '\n';
#endif
#ifdef CUSHIM_NVRTC
  int major = -1, minor = -1;
  nvrtcResult version = nvrtcVersion(&major, &minor);
  std::cout << "call.nvrtc=" << int(version) << '|' << major << '.' << minor << '\n';
#endif
#ifdef CUSHIM_CUDA_DRIVER
  std::cout << "call.driver=" << int(cuInit(0)) << '\n';
#endif
}

// --call NAME: the stub of table line NAME called without arguments, as "call.NAME=" its result as
// a number. Only for a function the loaded copy lacks (or a library that cannot be used): its
// fallback reads no argument.
bool call_without_arguments(const std::string& wanted, int& result) {
  using no_arguments = int (*)();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-function-type"
#define CUSHIM_API(lib, group, ret, name, params, args)                           \
  if (wanted == CUSHIM_NAME_TEXT(name)) {                                         \
    result = reinterpret_cast<no_arguments>(static_cast<ret(*) params>(&name))(); \
    return true;                                                                  \
  }
#define CUSHIM_API_DECLARED(lib, group, ret, name, params, args, declared, arity)
#include <cushim/detail/tables/library_tables.inc>
#undef CUSHIM_API
#undef CUSHIM_API_DECLARED
#pragma GCC diagnostic pop
  return false;
}

// The problem blocks of explain(): "  WARNING: what" or "  ERROR: what", then its file, why and fix
// lines.
std::vector<cushim::problem> problem_blocks(const std::string& text) {
  std::vector<cushim::problem> blocks;
  std::istringstream lines(text);
  bool open = false;
  for (std::string line; std::getline(lines, line);) {
    auto after = [&line](const char* prefix) {
      return line.rfind(prefix, 0) == 0 ? line.substr(std::strlen(prefix)) : std::string("\x01");
    };
    std::string warning = after("  WARNING: "), error = after("  ERROR: "), value;
    if (warning != "\x01" || error != "\x01") {
      bool fatal = error != "\x01";
      blocks.push_back({cushim::error_code::ok, fatal, fatal ? error : warning, "", "", ""});
      open = true;
    } else if (open && (value = after("    file: ")) != "\x01") {
      blocks.back().path = value;
    } else if (open && (value = after("    why:  ")) != "\x01") {
      blocks.back().why = value;
    } else if (open && (value = after("    fix:  ")) != "\x01") {
      blocks.back().fix = value;
    } else {
      open = false;
    }
  }
  return blocks;
}

// The end of the JSON string that starts at `at` (its opening quote), past its closing quote.
std::size_t end_of_json_string(const std::string& json, std::size_t at) {
  for (std::size_t i = at + 1; i < json.size(); ++i) {
    if (json[i] == '\\') {
      ++i;
    } else if (json[i] == '"') {
      return i + 1;
    }
  }
  return json.size();
}

// Each problem of explain_json() as its fields from "fatal" to the end of "fix".
std::multiset<std::string> json_problems(const std::string& json) {
  std::multiset<std::string> problems;
  for (std::size_t at = json.find("\"fatal\":"); at != std::string::npos; at = json.find("\"fatal\":", at + 1)) {
    std::size_t fix = json.find("\"fix\":", at);
    if (fix == std::string::npos) break;
    problems.insert(json.substr(at, end_of_json_string(json, fix + 6) - at));
  }
  return problems;
}

// One report, two renderers: every WARNING and ERROR of explain() is a problem of explain_json()
// with the same what, path, why and fix, and the other way round. "ok", or what differs.
std::string report_parity() {
  std::multiset<std::string> in_json = json_problems(cushim::explain_json());
  std::vector<cushim::problem> blocks = problem_blocks(cushim::explain());
  for (const cushim::problem& b : blocks) {
    std::string fields = "\"fatal\":" + std::string(b.fatal ? "true" : "false") +
                         ",\"what\":" + cushim::diagnostics::json_string(b.what) +
                         ",\"path\":" + cushim::diagnostics::json_string(b.path) +
                         ",\"why\":" + cushim::diagnostics::json_string(b.why) +
                         ",\"fix\":" + cushim::diagnostics::json_string(b.fix);
    auto found = in_json.find(fields);
    if (found == in_json.end()) return "not in explain_json(): " + b.what;
    in_json.erase(found);
  }
  if (!in_json.empty()) return "not in explain(): " + *in_json.begin();
  if (blocks.size() != cushim::diagnostics::problems().size()) return "diagnostics::problems() differs";
  return "ok";
}

int run_status(const arguments& a) {
  if (a.explain_first) std::cout << "first.explain=" << cushim::explain().size() << " chars\n";
  if (a.create_first) {
    cudnnHandle_t handle = nullptr;
    std::cout << "first.cudnnCreate=" << int(cudnnCreate(&handle)) << '\n';
  }
  for (const std::string& file : a.preloads) {
    std::cout << "preload=" << (::dlopen(file.c_str(), RTLD_NOW) ? "loaded" : "failed") << '|' << file << '\n';
  }
  if (a.configure_late) {
    cushim::available(cushim::library::cudnn);
    std::cout << "configure=" << (cushim::configure(a.opts) ? "accepted" : "refused") << '\n';
  } else if (a.configure) {
    std::cout << "configure=" << (cushim::configure(a.opts) ? "accepted" : "refused") << '\n';
  }
  if (a.configure_again) {  // after cuDNN loaded: refused, and the refusal is logged
    cushim::available(cushim::library::cudnn);
    std::cout << "configure_again=" << (cushim::configure(a.opts) ? "accepted" : "refused") << '\n';
  }
  if (a.convolution_first) {
    std::string cnn = cushim::detail::sublibrary_file_name("cnn", CUDNN_MAJOR);
    std::cout << "first.cudnnGetVersion=" << cudnnGetVersion() << '\n'
              << "first.cnn_loaded=" << in_process(cnn) << '\n'
              << "first.cudnnConvolutionForward=" << int(call_convolution()) << '\n'
              << "then.cnn_loaded=" << in_process(cnn) << '\n';
  }
  print_status("cudnn", cushim::library::cudnn);
  print_status("cudart", cushim::library::cudart);
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    if (lib != cushim::library::cudnn && lib != cushim::library::cudart) print_status(cushim::to_string(lib), lib);
  }
  print_opted_in_calls();
  for (const std::string& name : a.calls) {
    int result = 0;
    std::cout << "call." << name << '='
              << (call_without_arguments(name, result) ? std::to_string(result) : "no such line") << '\n';
  }
  std::cout << "cudnnGetVersion=" << cudnnGetVersion() << '\n';
  cudnnHandle_t handle = nullptr;
  cudnnStatus_t created = cudnnCreate(&handle);
  if (created == CUDNN_STATUS_SUCCESS) cudnnDestroy(handle);
  std::cout << "cudnnCreate=" << int(created) << '\n';
  if (a.call_convolution) {  // a cnn function: gated when libcudnn_cnn is unusable
    std::cout << "cudnnConvolutionForward=" << int(call_convolution()) << '\n';
  }
  if (a.reenter_from_log) {
    std::cout << "reentrant.cudnnGetErrorString=" << one_line(reentrant_text) << '\n'
              << "then.cudnnGetErrorString=" << one_line(cudnnGetErrorString(CUDNN_STATUS_SUCCESS)) << '\n';
  }
  std::cout << "report_parity=" << one_line(report_parity()) << '\n';
  std::cout << "--- explain\n" << cushim::explain();
  if (a.print_json) std::cout << "--- json\n" << cushim::explain_json() << '\n';
  return 0;
}

#ifndef _WIN32  // fork() is POSIX
// --mode fork: a thread starts cuDNN's first load, whose log callback holds it for a moment;
// meanwhile the main thread forks. The child must see the load finished, not a half-done search
// it would wait for forever (an alarm ends it then).
std::atomic<bool> load_started{false};
void slow_log(std::string_view line, void*) {
  if (line.find("cushim: cuDNN: searching for") != 0) return;
  load_started.store(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

int run_fork(arguments a) {
  a.opts.log = slow_log;
  cushim::configure(a.opts);
  std::thread loading([] { cudnnGetVersion(); });
  while (!load_started.load()) std::this_thread::yield();
  pid_t child = ::fork();
  if (child == 0) {
    ::alarm(10);
    const cushim::status& st = cushim::status_of(cushim::library::cudnn);
    std::printf("child.cudnn.code=%s\nchild.cudnn.attempts=%zu\n", cushim::to_string(st.code), st.attempts.size());
    std::fflush(stdout);
    ::_exit(0);
  }
  loading.join();
  int status = 0;
  ::waitpid(child, &status, 0);
  const cushim::status& st = cushim::status_of(cushim::library::cudnn);
  std::cout << "child.exit="
            << (WIFEXITED(status) ? std::to_string(WEXITSTATUS(status)) : "signal " + std::to_string(WTERMSIG(status)))
            << "\nparent.cudnn.code=" << cushim::to_string(st.code) << "\nparent.cudnn.attempts=" << st.attempts.size()
            << '\n';
  return 0;
}
#endif

// Counts the "searching for" line the loader logs once when it starts a library's search.
struct search_counts {
  std::atomic<int> cudnn{0}, cudart{0}, other{0};
  bool echo = false;
};

void count_searches(std::string_view line, void* context) {
  auto& counts = *static_cast<search_counts*>(context);
  if (counts.echo) log_to_stderr(line, nullptr);
  if (line.find("searching for") == std::string_view::npos) return;
  auto starts_with = [&](std::string_view prefix) { return line.substr(0, prefix.size()) == prefix; };
  if (starts_with("cushim: cuDNN:")) {
    ++counts.cudnn;
  } else if (starts_with("cushim: CUDA runtime:")) {
    ++counts.cudart;
  } else {
    ++counts.other;
  }
}

struct first_call {
  const char* name;
  std::string (*call)();
};

// Each thread's first call into cushim; several threads share each entry.
const first_call first_calls[] = {
    {"cudnnGetVersion", [] { return std::to_string(cudnnGetVersion()); }},
    {"cudnnGetErrorString", [] { return std::string(cudnnGetErrorString(CUDNN_STATUS_SUCCESS)); }},
    {"cudnnCreate",
     [] {
       cudnnHandle_t handle = nullptr;
       cudnnStatus_t s = cudnnCreate(&handle);
       if (s == CUDNN_STATUS_SUCCESS) cudnnDestroy(handle);
       return std::to_string(int(s));
     }},
    {"cudaRuntimeGetVersion",
     [] {
       int v = -1;
       cudaError_t e = cudaRuntimeGetVersion(&v);
       return std::to_string(int(e)) + "|" + std::to_string(v);
     }},
    {"cudaGetDeviceCount",
     [] {
       int n = -1;
       cudaError_t e = cudaGetDeviceCount(&n);
       return std::to_string(int(e)) + "|" + std::to_string(n);
     }},
    {"cudnnGetCudartVersion", [] { return std::to_string(cudnnGetCudartVersion()); }},
    {"cudnnConvolutionForward", [] { return std::to_string(int(call_convolution())); }},  // checks libcudnn_cnn
    {"available",
     [] {
       return std::to_string(cushim::available(cushim::library::cudnn)) + "|" +
              std::to_string(cushim::available(cushim::library::cudart));
     }},
    {"status_of",
     [] {
       const cushim::status& st = cushim::status_of(cushim::library::cudnn);
       std::string subs;
       for (const cushim::sublibrary& sub : st.sublibraries) subs += sub.usable ? '1' : '0';
       return std::string(cushim::to_string(st.code)) + "|" + st.path + "|" + std::to_string(st.attempts.size()) + "|" +
              subs + "|" + std::to_string(st.problems.size());
     }},
    {"explain", [] { return cushim::explain(); }},
};
constexpr int first_call_kinds = int(sizeof first_calls / sizeof first_calls[0]);

int run_threads(arguments a) {
  search_counts counts;
  counts.echo = a.log_to_stderr;
  a.opts.log = count_searches;
  a.opts.log_context = &counts;
  cushim::configure(a.opts);

  std::vector<std::string> results(std::size_t(a.thread_count));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < a.thread_count; ++i) {
    threads.emplace_back([&, i] {
      ++ready;
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();  // all start together
      results[std::size_t(i)] = first_calls[i % first_call_kinds].call();
    });
  }
  while (ready.load() < a.thread_count) std::this_thread::yield();
  go.store(true, std::memory_order_release);
  for (std::thread& t : threads) t.join();

  std::cout << "searches.cudnn=" << counts.cudnn << '\n'
            << "searches.cudart=" << counts.cudart << '\n'
            << "searches.other=" << counts.other << '\n';
  std::map<std::string, std::set<std::string>> seen;
  std::map<std::string, int> calls;
  for (int i = 0; i < a.thread_count; ++i) {
    const char* name = first_calls[i % first_call_kinds].name;
    seen[name].insert(results[std::size_t(i)]);
    ++calls[name];
  }
  for (const auto& [name, values] : seen) {
    std::cout << "calls." << name << '=' << calls[name] << '\n' << "distinct." << name << '=' << values.size() << '\n';
    if (name == "explain") continue;  // many lines; its distinct count says enough
    for (const std::string& v : values) std::cout << "value." << name << '=' << one_line(v) << '\n';
  }
  std::cout << "cudnn.code=" << cushim::to_string(cushim::status_of(cushim::library::cudnn).code) << '\n'
            << "cudnn.path=" << cushim::status_of(cushim::library::cudnn).path << '\n'
            << "cudart.code=" << cushim::to_string(cushim::status_of(cushim::library::cudart).code) << '\n'
            << "cudart.path=" << cushim::status_of(cushim::library::cudart).path << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  arguments a;
  if (!parse_arguments(argc, argv, a)) {
    std::cerr << "usage: cushim_probe [--search-dir DIR]... [--no-env] [--cudnn-file P] [--cudart-file P]\n"
                 "                    [--library-file LIBRARY P]\n"
                 "                    [--policy same_major|same_major_newer_minor] [--configure-late] [--log] "
                 "[--explain-from-log] [--call-convolution]\n"
                 "                    [--mode status | --mode threads N | --mode fork | --mode <hostile mode>]\n";
    return 2;
  }
  if (a.threads_mode) return run_threads(a);
#ifndef _WIN32
  if (a.sigchld == "ignore") ::signal(SIGCHLD, SIG_IGN);
  if (a.sigchld == "reap") {
    struct sigaction reaper {};
    reaper.sa_handler = [](int) {
      int saved = errno;
      while (::waitpid(-1, nullptr, WNOHANG) > 0) {
      }
      errno = saved;
    };
    reaper.sa_flags = SA_RESTART;
    ::sigaction(SIGCHLD, &reaper, nullptr);
  }
  if (!a.hostile_mode.empty()) {
    int status = hostile::run_mode(a.hostile_mode, a.opts);
    return status < 0 ? 2 : status;
  }
  if (!a.loop_scenario.empty()) {
    int status = race::run_loop(a.loop_scenario, a.loop_runs, a.loop_seconds, a.loop_run_limit_ms);
    return status < 0 ? 2 : status;
  }
  if (a.crash_handler) {
    struct sigaction reporter {};
    reporter.sa_handler = [](int) { ::_exit(7); };
    ::sigaction(SIGSEGV, &reporter, nullptr);
    ::sigaction(SIGABRT, &reporter, nullptr);
  }
  if (a.fork_mode) return run_fork(a);
#else
  if (!a.hostile_mode.empty() || !a.loop_scenario.empty()) return 2;  // the hostile modes are POSIX's
#endif
  if (a.log_to_stderr || a.explain_from_log || a.reenter_from_log) {
    a.opts.log = a.reenter_from_log ? reenter_from_log : a.explain_from_log ? explain_from_log : log_to_stderr;
    a.configure = true;
  }
  return run_status(a);
}
