// The types of <cushim/status.hpp> (outcome, attempt, problem, sublibrary, status, options, ...),
// which the search, the report and the implementation fill in.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "library_enums.hpp"

namespace cushim {

// What happened to one place cushim looked at, in search order.
enum class outcome {
  loaded,               // this candidate is the one in use
  reused,               // already loaded in the process; reused
  absent,               // no such file
  folder_absent,        // the folder itself does not exist
  not_a_file,           // exists but is a folder, device, FIFO or socket: never opened
  unreadable,           // exists, but this process may not read it
  load_failed,          // the system loader refused it (detail has the loader's message)
  not_the_library,      // loaded, but lacks the version function
  wrong_version,        // loaded, version unacceptable; unloaded again
  skipped_relative,     // a relative entry in a search list: never used (current-directory planting)
  skipped_empty,        // an empty entry in a search list (would mean the current directory)
  duplicate,            // same file as an earlier candidate
  bad_format,           // not a shared library of this platform (text, empty, truncated, ...)
  wrong_architecture,   // a library for another machine or word size (32-bit in a 64-bit process)
  missing_dependency,   // the loader refused it: a library it needs cannot be found (detail names it)
  sublibrary_unusable,  // cuDNN itself is fine, but its root sub-library is missing or broken
  shadowed,             // other_copies: a copy later in the search, never loaded
  other_major,          // other_copies: the library of another major version in a searched folder
  untrusted_location,   // trusted_dirs_only: the file or its folder is writable by other users
  crashed,              // probe_in_child: in a child process it crashed, ended the process or hung; never loaded here
};

// One place cushim looked at: a candidate file, or an entry of a search list it skipped.
struct attempt {
  std::string rule;  // which search rule produced it, e.g. "CUSHIM_SEARCH_PATH[2]"
  std::string path;  // the file (or the raw entry, for skipped entries)
  outcome result;
  std::string detail;  // loader message, version found, ...
};

// Something wrong with a library or its surroundings, with why and what to do. cushim-doctor
// reports what it finds on a machine with the same type, each problem named.
struct problem {
  error_code code = error_code::ok;
  bool fatal = false;  // false: a warning, the library is still used
  std::string what;    // what failed
  std::string path;    // the file concerned (empty if none)
  std::string why;     // the decoded reason
  std::string fix;     // what to do
  // A stable name for a program to match: cushim-doctor's problem codes ("cpu_only_build", ...;
  // docs/doctor.md). Empty in cushim's own, which `code` names and explain_json() shows as they are.
  std::string name = {};
};

// A copy of a sub-library that cuDNN's by-name search meets before the one in use: a file the
// system loader cannot use, or another release it would take had cushim not preloaded the right one.
struct shadowing_copy {
  std::string path;
  std::string why;             // "not an ELF file", "cuDNN 9.23.0", ...
  bool other_release = false;  // true: loadable, but of another release; false: unusable
  bool blocks = false;         // a FIFO: the search waits on it forever, and meets nothing after it
};

// A file a library loads by name itself: one of cuDNN's sub-libraries (libcudnn_cnn.so.9,
// libcudnn_ops_infer.so.8, ...), NVRTC's builtins (libnvrtc-builtins.so.13.0).
struct sublibrary {
  std::string name;                       // "graph", "cnn", "ops_infer", ..., "builtins"
  std::string file_name;                  // libcudnn_cnn.so.9
  std::string path;                       // the copy the library will use; empty when none
  bool required = false;                  // without it no call of the library works
  bool usable = false;                    // cuDNN: its functions reach cuDNN; otherwise they return the fallback
  bool preloaded = false;                 // cushim loaded it by absolute path: the library's own search would miss it
  bool known = true;                      // false: not in cushim's list, found beside the main library
  int version = 0;                        // in its library's encoding, from the file; 0 when the file does not say
  std::string problem;                    // why it is unusable
  std::vector<shadowing_copy> shadowing;  // cuDNN: met first by its search, in its order
};

// Everything cushim knows about one library: status_of()'s answer.
struct status {
  library lib;
  error_code code = error_code::not_found;
  std::string path;            // absolute path of the library in use
  std::string found_by;        // the rule that found it
  int version = 0;             // as the library reports it, in its encoding (CUDNN_VERSION, CUDART_VERSION, ...)
  std::string version_source;  // where the version came from
  int compiled_version = 0;    // the headers this program was built with
  int built_for_cuda = 0;      // cuDNN only: cudnnGetCudartVersion(), the CUDA it was built for
  std::vector<attempt> attempts;
  std::vector<problem> problems;
  std::vector<sublibrary> sublibraries;  // cuDNN's, NVRTC's builtins: for the copy in use (or the last one tried)
  std::vector<attempt> other_copies;     // seen on the search path, not loaded (shadowed, other majors)
};

// Called once per event with one line of text; context is passed through unchanged.
using log_function = void (*)(std::string_view line, void* context);

// One path per library, indexed by library: files[library::cudnn]. A value that is no library
// (library(99)) names `unused`, which cushim never reads.
struct library_files {
  std::string& operator[](library lib) { return known(lib) ? paths[int(lib)] : unused; }
  const std::string& operator[](library lib) const { return known(lib) ? paths[int(lib)] : unused; }
  std::string paths[library_count];
  std::string unused;

 private:
  static bool known(library lib) { return int(lib) >= 0 && int(lib) < library_count; }
};

// What configure() sets; the defaults are what cushim does without it.
struct options {
  std::vector<std::string> search_dirs;  // searched first, in order (UTF-8, absolute)
  library_files files;                   // a library's exact file or folder: authoritative, no fallback
  bool use_environment = true;           // CUSHIM_*, CUDNN_PATH, CUDA_PATH, CONDA_PREFIX, ...
  bool trusted_dirs_only = false;  // refuse files other users could have put there (also CUSHIM_TRUSTED_DIRS_ONLY=1)
  bool fail_fast = false;  // a call that cannot reach its library prints explain() and aborts (CUSHIM_FAIL_FAST=1)
  // Load and check each candidate in a child process first, and load here only a copy that
  // passed there (also CUSHIM_PROBE_IN_CHILD=1). Linux: a fork; Windows: probe_program.
  bool probe_in_child = false;
  int probe_timeout_ms = 10000;  // a child that takes longer is killed (also CUSHIM_PROBE_TIMEOUT_MS)
  // Windows: the program (UTF-8 path) probe_in_child starts per candidate; it must call
  // serve_probe_request first in main (also CUSHIM_PROBE_PROGRAM). Without one, candidates are
  // loaded in this process. Linux forks and does not use it.
  std::string probe_program;
  version_policy policy = version_policy::same_major_newer_minor;
  // A folder that stands for "/" (Linux) in the fixed places the search reads (/etc/ld.so.cache and
  // the paths it lists, the system folders, /usr/local/cuda*), or for the Windows folder in the
  // driver's search (its System32): for a tool that examines a machine laid out in a folder
  // (cushim-doctor's tests). Empty: this machine. The paths environment variables name
  // (LD_LIBRARY_PATH, CUDA_HOME, PATH, ...) are taken as they are.
  std::string system_root;
  log_function log = nullptr;
  void* log_context = nullptr;
};

// The stable name of a candidate's outcome, as used in explain_json().
const char* to_string(outcome result);

}  // namespace cushim
