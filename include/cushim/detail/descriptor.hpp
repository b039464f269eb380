// A library as data. Everything that differs between the libraries cushim loads sits in one
// descriptor per library (detail/libraries/); search, load, checks, report and stubs read a
// descriptor and never name a library. What only one library has (cuDNN's sub-libraries, the
// runtime's device count, NVRTC's builtins) is a hook the descriptor points at.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform.hpp"
#include "versions.hpp"

#define CUSHIM_STRINGIFY2(x) #x
#define CUSHIM_STRINGIFY(x) CUSHIM_STRINGIFY2(x)

namespace cushim {
namespace detail {
namespace {

struct library_state;
struct candidate_check;
struct report;
struct report_library;

// A list of constants in a descriptor: constant-initialised, never destroyed, so it stays valid
// for calls made from other objects' destructors at exit.
template <class T>
class fixed_list {
 public:
  constexpr fixed_list() = default;
  template <std::size_t N>
  constexpr fixed_list(const T (&items)[N]) : items_(items), count_(N) {}
  constexpr const T* begin() const { return items_; }
  constexpr const T* end() const { return items_ + count_; }
  constexpr std::size_t size() const { return count_; }
  constexpr bool empty() const { return count_ == 0; }

 private:
  const T* items_ = nullptr;
  std::size_t count_ = 0;
};

// A text that differs between Linux and Windows; platform_text() picks this platform's.
struct os_text {
  const char* posix;
  const char* windows;
};

inline const char* platform_text(const os_text& text) {
  return platform::windows_names ? text.windows : text.posix;
}

// The file of one major version, as the system loader names it.
struct major_file {
  int major;
  os_text name;  // libcudart.so.11.0 / cudart64_110.dll
};

// What only some libraries have. Null where a library has nothing of the kind.
struct library_hooks {
  // A loaded candidate, before its version is read (cuDNN: its sub-libraries, without which
  // cuDNN aborts the process even in cudnnGetVersion). Returns outcome::loaded to go on.
  outcome (*before_version)(candidate_check&) = nullptr;
  // A candidate whose version was accepted (cuDNN: the sub-libraries must agree with it).
  outcome (*after_version)(candidate_check&) = nullptr;
  // The copy in use was just chosen (cuDNN: the CUDA major it was built for).
  void (*adopted)(library_state&, platform::library_handle) = nullptr;
  // A function found in the library, or what to call instead (the runtime's device count).
  platform::any_function (*wrap)(const char* name, platform::any_function found) = nullptr;
  // Whether a call must get the "unavailable" fallback although the library loaded (cuDNN: the
  // sub-library of the table's group column is unusable). May load what the call needs.
  bool (*blocks_call)(library_state&, const char* name, const char* group) = nullptr;
  // Before status_of() hands the status out: the checks a first call did not need.
  void (*complete_status)(library_state&) = nullptr;
  // Problems that need the other libraries' state too (cuDNN's CUDA build against the runtime).
  void (*cross_check)(report&, report_library&) = nullptr;
  // What to do when no copy is found, where "install it or point cushim at it" does not apply
  // (the driver comes with the system's NVIDIA driver and has no override).
  const char* (*install_advice)() = nullptr;
  // Loads, as their first calls would, the files the library loads by name itself that no call has
  // needed yet (cuDNN's sub-libraries): diagnostics::load_sublibraries.
  void (*load_pending)(library_state&) = nullptr;
};

struct library_descriptor {
  library id;
  const char* key;           // "cudnn": to_string(library), explain_json()
  const char* display_name;  // "cuDNN", "CUDA runtime": section titles
  const char* in_sentence;   // "cuDNN", "the CUDA runtime"
  bool shimmed;              // false: this build leaves it to the program (error_code::disabled)
  bool opt_in;               // shimmed only when the program defines disabled_by; when it does not, the
                             // library is left out of every report (explain(), the doctor) altogether
  const char* disabled_by;   // the macro that decides it
  const char* disabled_why;  // what the program does instead

  int compiled_version;  // the headers' version (CUDNN_VERSION, CUDART_VERSION)
  int compiled_major;
  fixed_list<major_file> files;  // every supported major's file name
  const char* link_name;         // "cudnn": -lcudnn, cudnn.lib

  // The version the loaded file reports.
  const char* version_function;
  long (*query_version)(platform::any_function);  // 0 when the call fails
  version_parts (*decode_version)(long);
  long (*encode_version)(int major, int minor, int patch);
  bool version_has_patch;      // cuDNN 9.19.0, but CUDA 13.0
  bool ask_file_when_zero;     // a version of 0 is no answer (CUDA 13's runtime without a driver)
  bool newer_major_works;      // a newer major runs programs built for this one (the driver)
  bool older_minor_works;      // an older minor is a warning whatever the policy (the driver's minor
                               // version compatibility: a 12.0 driver runs programs built with 12.x)
  const char* older_minor_effect;  // what an older minor than the headers' costs, when allowed

  // Where it is searched (README.md, "Search order").
  bool system_only;  // only where the system installs it (platform::system_install_candidates), in
                     // trusted folders, with no override: the driver, never a toolkit's stub
  bool reports_driver;                 // its status is also the report's "NVIDIA driver" section
  const char* override_variable;       // CUSHIM_CUDNN_PATH; null: no override (options.files ignored)
  fixed_list<const char*> home_variables;  // its own install roots (CUDNN_PATH, ...)
  bool in_toolkit;                     // in CUDA_PATH, CUDA_HOME and the toolkit's folders
  fixed_list<const char*> pip_packages;    // site-packages/nvidia/<package>
  const char* windows_installer;       // %ProgramFiles%\<it>\v<major>.*: NVIDIA's own installer; or null

  // What calls do when it cannot be used (README.md, "Error codes").
  const char* effect;            // for explain(): what calls return while it is unavailable
  const char* unavailable_text;  // what its text functions return while it is unavailable
  const char* missing_text;      // ... when the loaded copy lacks the function
  const char* missing_returns;   // the status a function missing from the copy returns
  const char* blocked_returns;   // the status a function routed to the fallback by a hook returns
  fixed_list<const char*> zeroed_outputs;  // functions whose int* outputs the fallback sets to 0
  fixed_list<const char*> text_outputs;    // functions whose const char** output it points at the text

  library_hooks hooks;
  // Functions a program calls on its own before main and at exit (nvcc's registration of its
  // kernels): fail_fast never stops in them, so the program reaches main and its first real call.
  fixed_list<const char*> startup_functions = {};
};

// Its file of one major ("libcudnn.so.9"); empty for a major it does not have.
inline const char* file_name_for_major(const library_descriptor& d, int major) {
  for (const major_file& f : d.files) {
    if (f.major == major) return platform_text(f.name);
  }
  return "";
}

// Its file for the major its headers have.
inline const char* compiled_file_name(const library_descriptor& d) { return file_name_for_major(d, d.compiled_major); }

// The same library's files of the other supported majors.
inline std::vector<std::string> other_major_files(const library_descriptor& d) {
  std::vector<std::string> files;
  for (const major_file& f : d.files) {
    if (f.major != d.compiled_major) files.emplace_back(platform_text(f.name));
  }
  return files;
}

// The major a file name of this library stands for (cudart64_110.dll: 11); 0 when none.
inline int major_of_file(const library_descriptor& d, const std::string& name) {
  for (const major_file& f : d.files) {
    if (name == platform_text(f.name)) return f.major;
  }
  return 0;
}

inline std::string version_text(const library_descriptor& d, long v) {
  return format_version(d.decode_version(v), d.version_has_patch);
}

// The CUDA major the program was compiled for: which toolkit folders and builds it needs.
constexpr int compiled_cuda_major() { return CUDART_VERSION / 1000; }

}  // namespace
}  // namespace detail
}  // namespace cushim
