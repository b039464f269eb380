// cushim: load cuDNN and the CUDA runtime at run time, explain every failure.
//
// Include this header wherever the application calls cudnn* or cuda* functions, define
// CUSHIM_IMPLEMENTATION in exactly one .cpp before including it, and stop linking
// -lcudnn -lcudart. Every call then goes through a lazily resolved function pointer; when a
// library cannot be used the call returns a defined error code and cushim::explain() says why.
//
// Configuration macros (define before including, the same in every TU):
//   CUSHIM_IMPLEMENTATION  in one .cpp: defines the API and the exported cudnn*/cuda* stubs.
//   CUSHIM_NO_CUDART       shim cuDNN only (the app links cudart_static, nvcc's default).
//   CUSHIM_CUDART_CORE     shim only the core CUDA runtime subset (device, memory, stream,
//                          event, error, version), for CUDA headers older than cushim's table.
#pragma once

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <string>
#include <string_view>
#include <vector>

#define CUSHIM_VERSION_MAJOR 0
#define CUSHIM_VERSION_MINOR 1
#define CUSHIM_VERSION_PATCH 0

namespace cushim {

// The libraries cushim loads.
enum class library { cudart, cudnn };

// How the loaded library's version must relate to the headers the program was compiled with.
enum class version_policy {
  same_major_newer_minor,  // major equal, minor >= compiled minor (the default; TensorFlow's rule)
  same_major,              // major equal; an older minor is a warning, not a failure
};

// Why a library is unavailable. The numeric values are stable and documented in README.md.
enum class error_code : int {
  ok = 0,
  not_found = 1,                // no candidate file exists anywhere cushim searched
  load_failed = 2,              // a file was found but the system loader refused it
  not_the_library = 3,          // the file loaded but does not export the library's version function
  version_mismatch = 4,         // wrong major, or an older minor than the policy allows
  override_failed = 5,          // the explicit file or folder (options / CUSHIM_*_PATH) is unusable
  already_loaded_mismatch = 6,  // the copy already in the process is unusable; no second copy
  disabled = 7,                 // this build does not shim the library (CUSHIM_NO_CUDART)
  sublibrary_unusable = 8,      // a required cuDNN sub-library is missing, of another version, or cannot load
};

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
};

struct attempt {
  std::string rule;  // which search rule produced it, e.g. "CUSHIM_SEARCH_PATH[2]"
  std::string path;  // the file (or the raw entry, for skipped entries)
  outcome result;
  std::string detail;  // loader message, version found, ...
};

struct problem {
  error_code code;
  bool fatal;        // false: a warning, the library is still used
  std::string what;  // what failed
  std::string path;  // the file concerned (empty if none)
  std::string why;   // the decoded reason
  std::string fix;   // what to do
};

// One of cuDNN's own sub-libraries (libcudnn_cnn.so.9, libcudnn_ops_infer.so.8, ...).
struct sublibrary {
  std::string name;        // "graph", "cnn", "ops_infer", ...
  std::string file_name;   // libcudnn_cnn.so.9
  std::string path;        // the copy cuDNN will use; empty when none
  bool required = false;   // without it no cuDNN call works
  bool usable = false;     // its functions reach cuDNN; otherwise they return the fallback
  bool preloaded = false;  // cushim loaded it by absolute path: cuDNN's own search would miss it
  int version = 0;         // CUDNN_VERSION encoding from the file; 0 when the file does not say
  std::string problem;     // why it is unusable
};

struct status {
  library lib;
  error_code code = error_code::not_found;
  std::string path;            // absolute path of the library in use
  std::string found_by;        // the rule that found it
  int version = 0;             // as the library reports it (CUDNN_VERSION / CUDART_VERSION encoding)
  std::string version_source;  // where the version came from
  int compiled_version = 0;    // the headers this program was built with
  int built_for_cuda = 0;      // cuDNN only: cudnnGetCudartVersion(), the CUDA it was built for
  std::vector<attempt> attempts;
  std::vector<problem> problems;
  std::vector<sublibrary> sublibraries;  // cuDNN only, for the copy in use (or the last one tried)
  std::vector<attempt> other_copies;     // seen on the search path, not loaded (shadowed, other majors)
};

// Called once per event with one line of text; context is passed through unchanged.
using log_function = void (*)(std::string_view line, void* context);

struct options {
  std::vector<std::string> search_dirs;  // searched first, in order (UTF-8, absolute)
  std::string cudnn_file;                // exact file or folder: authoritative, no fallback
  std::string cudart_file;
  bool use_environment = true;     // CUSHIM_*, CUDNN_PATH, CUDA_PATH, CONDA_PREFIX, ...
  bool trusted_dirs_only = false;  // refuse files other users could have put there (also CUSHIM_TRUSTED_DIRS_ONLY=1)
  version_policy policy = version_policy::same_major_newer_minor;
  log_function log = nullptr;
  void* log_context = nullptr;
};

// Sets the options. Only before the first load; later calls return false and are reported.
bool configure(const options& opts);

// Loads the library on first use; true when its calls reach the real library. Never throws.
bool available(library lib);

// Where the library came from, its versions, every candidate tried and every problem found.
// Loads on first use. The reference stays valid for the life of the process.
const status& status_of(library lib);

// The whole chain (driver, CUDA runtime, cuDNN) as text for a person: what failed, which file,
// why, and what to do.
std::string explain();

// The same as JSON (schema in README.md).
std::string explain_json();

// Stable names for enums, as used in explain_json().
const char* to_string(error_code code);
const char* to_string(outcome result);
const char* to_string(library lib);

}  // namespace cushim

#ifdef CUSHIM_IMPLEMENTATION
#include "detail/implementation.hpp"
#endif
