// A library as data. Everything that differs between the libraries cushim loads sits in one
// descriptor per library (detail/libraries/<key>.hpp, generated from the library's record in
// tools/libraries.json); search, load, checks, report and stubs read a descriptor and never name a
// library. What only one library has (cuDNN's sub-libraries, the runtime's device count, NVRTC's
// builtins) is a hook the descriptor points at, in detail/libraries/<key>_hooks.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../platform/platform.hpp"
#include "../types/nvidia_headers.hpp"  // CUDART_VERSION, CUDNN_VERSION
#include "../types/status_types.hpp"
#include "../files/versions.hpp"

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

inline const char* platform_text(const os_text& text) { return platform::windows_names ? text.windows : text.posix; }

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
  library id{};
  const char* key = "";           // "cudnn": to_string(library), explain_json()
  const char* display_name = "";  // "cuDNN", "CUDA runtime": section titles
  const char* in_sentence = "";   // "cuDNN", "the CUDA runtime"
  bool shimmed = true;            // false: this build leaves it to the program (error_code::disabled)
  bool opt_in = false;            // shimmed only when the program defines disabled_by; when it does not, the
                                  // library is left out of every report (explain(), the doctor) altogether
  const char* disabled_by = "";   // the macro that decides it
  const char* disabled_why = "";  // what the program does instead

  int compiled_version = 0;  // the headers' version (CUDNN_VERSION, CUDART_VERSION)
  int compiled_major = 0;
  fixed_list<major_file> files;  // every supported major's file name
  const char* link_name = "";    // "cudnn": -lcudnn, cudnn.lib

  // The version the loaded file reports.
  const char* version_function = "";
  long (*query_version)(platform::any_function) = nullptr;  // 0 when the call fails
  version_parts (*decode_version)(long) = nullptr;
  long (*encode_version)(int major, int minor, int patch) = nullptr;
  bool version_has_patch = false;       // cuDNN 9.19.0, but CUDA 13.0
  bool ask_file_when_zero = false;      // a version of 0 is no answer (CUDA 13's runtime without a driver)
  bool newer_major_works = false;       // a newer major runs programs built for this one (the driver)
  bool older_major_works = false;       // an older major serves what it has (NVML: the management library of
                                        // an older driver); a function it lacks gets the "missing" fallback
  bool older_minor_works = false;       // an older minor is a warning whatever the policy (the driver's minor
                                        // version compatibility: a 12.0 driver runs programs built with 12.x)
  const char* older_minor_effect = "";  // what an older minor than the headers' costs, when allowed

  // Where it is searched (docs/search-order.md, "Search order (Linux)").
  bool system_only = false;     // only where the system installs it (platform::system_install_candidates), in
                                // trusted folders, with no override: the driver, never a toolkit's stub
  bool reports_driver = false;  // its status is also the report's "NVIDIA driver" section
  const char* override_variable = nullptr;  // CUSHIM_CUDNN_PATH; null: no override (options.files ignored)
  fixed_list<const char*> home_variables;   // its own install roots (CUDNN_PATH, ...)
  bool in_toolkit = false;                  // in CUDA_PATH, CUDA_HOME and the toolkit's folders
  fixed_list<const char*> pip_packages;     // site-packages/nvidia/<package>
  const char* windows_installer = nullptr;  // %ProgramFiles%\<it>\v<major>.*: NVIDIA's own installer; or null

  // What calls do when it cannot be used (docs/errors.md, "Error codes").
  const char* effect = "";                 // for explain(): what calls return while it is unavailable
  const char* unavailable_text = "";       // what its text functions return while it is unavailable
  const char* missing_text = "";           // ... when the loaded copy lacks the function
  const char* missing_returns = "";        // the status a function missing from the copy returns
  const char* blocked_returns = "";        // the status a function routed to the fallback by a hook returns
  fixed_list<const char*> zeroed_outputs;  // functions whose int* outputs the fallback sets to 0
  fixed_list<const char*> text_outputs;    // functions whose const char** output it points at the text,
                                           // or whose char* buffer it writes the text into

  library_hooks hooks;
  // Functions a program calls on its own before main and at exit (nvcc's registration of its
  // kernels): fail_fast never stops in them, so the program reaches main and its first real call.
  fixed_list<const char*> startup_functions;
  // Its calls load the driver by name (the runtime's first calls; cuDNN's, through its own runtime),
  // all but these and the startup functions: a FIFO where the system loader looks for the driver
  // would keep them waiting forever (first_call.hpp checks first).
  bool loads_driver = false;
  fixed_list<const char*> driver_free_functions;
};

// One field of a copy set (describe_library's setters). Free functions: clang does not instantiate a
// class's member templates in time for the constexpr initialisers of its descriptors.
template <class T, class V>
constexpr library_descriptor with_field(library_descriptor d, T library_descriptor::*field, V value) {
  d.*field = value;
  return d;
}
template <class T, class V>
constexpr library_descriptor with_hook(library_descriptor d, T library_hooks::*field, V value) {
  d.hooks.*field = value;
  return d;
}

// A descriptor by named fields: describe_library(library::cudnn).key("cudnn").display_name("cuDNN")...
// Each call returns a copy with one field (or flag, or hook) set; what is not named keeps the
// default above.
class describe_library {
 public:
  constexpr explicit describe_library(library id) { d_.id = id; }
  constexpr operator library_descriptor() const { return d_; }

  // Names
  constexpr describe_library key(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::key, v));
  }
  constexpr describe_library display_name(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::display_name, v));
  }
  constexpr describe_library in_sentence(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::in_sentence, v));
  }
  constexpr describe_library link_name(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::link_name, v));
  }
  // Whether this build shims it
  constexpr describe_library shimmed(bool v) const {
    return describe_library(with_field(d_, &library_descriptor::shimmed, v));
  }
  constexpr describe_library opt_in() const {
    return describe_library(with_field(d_, &library_descriptor::opt_in, true));
  }
  constexpr describe_library disabled_by(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::disabled_by, v));
  }
  constexpr describe_library disabled_why(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::disabled_why, v));
  }
  // Files and versions
  constexpr describe_library compiled_version(int v) const {
    return describe_library(with_field(d_, &library_descriptor::compiled_version, v));
  }
  constexpr describe_library compiled_major(int v) const {
    return describe_library(with_field(d_, &library_descriptor::compiled_major, v));
  }
  constexpr describe_library files(fixed_list<major_file> v) const {
    return describe_library(with_field(d_, &library_descriptor::files, v));
  }
  constexpr describe_library version_function(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::version_function, v));
  }
  constexpr describe_library query_version(long (*v)(platform::any_function)) const {
    return describe_library(with_field(d_, &library_descriptor::query_version, v));
  }
  constexpr describe_library decode_version(version_parts (*v)(long)) const {
    return describe_library(with_field(d_, &library_descriptor::decode_version, v));
  }
  constexpr describe_library encode_version(long (*v)(int, int, int)) const {
    return describe_library(with_field(d_, &library_descriptor::encode_version, v));
  }
  constexpr describe_library version_has_patch() const {
    return describe_library(with_field(d_, &library_descriptor::version_has_patch, true));
  }
  constexpr describe_library ask_file_when_zero() const {
    return describe_library(with_field(d_, &library_descriptor::ask_file_when_zero, true));
  }
  constexpr describe_library newer_major_works() const {
    return describe_library(with_field(d_, &library_descriptor::newer_major_works, true));
  }
  constexpr describe_library older_major_works() const {
    return describe_library(with_field(d_, &library_descriptor::older_major_works, true));
  }
  constexpr describe_library older_minor_works() const {
    return describe_library(with_field(d_, &library_descriptor::older_minor_works, true));
  }
  constexpr describe_library older_minor_effect(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::older_minor_effect, v));
  }
  // Search
  constexpr describe_library system_only() const {
    return describe_library(with_field(d_, &library_descriptor::system_only, true));
  }
  constexpr describe_library reports_driver() const {
    return describe_library(with_field(d_, &library_descriptor::reports_driver, true));
  }
  constexpr describe_library override_variable(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::override_variable, v));
  }
  constexpr describe_library home_variables(fixed_list<const char*> v) const {
    return describe_library(with_field(d_, &library_descriptor::home_variables, v));
  }
  constexpr describe_library in_toolkit() const {
    return describe_library(with_field(d_, &library_descriptor::in_toolkit, true));
  }
  constexpr describe_library pip_packages(fixed_list<const char*> v) const {
    return describe_library(with_field(d_, &library_descriptor::pip_packages, v));
  }
  constexpr describe_library windows_installer(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::windows_installer, v));
  }
  // Fallbacks
  constexpr describe_library effect(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::effect, v));
  }
  constexpr describe_library unavailable_text(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::unavailable_text, v));
  }
  constexpr describe_library missing_text(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::missing_text, v));
  }
  constexpr describe_library missing_returns(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::missing_returns, v));
  }
  constexpr describe_library blocked_returns(const char* v) const {
    return describe_library(with_field(d_, &library_descriptor::blocked_returns, v));
  }
  constexpr describe_library zeroed_outputs(fixed_list<const char*> v) const {
    return describe_library(with_field(d_, &library_descriptor::zeroed_outputs, v));
  }
  constexpr describe_library text_outputs(fixed_list<const char*> v) const {
    return describe_library(with_field(d_, &library_descriptor::text_outputs, v));
  }
  constexpr describe_library startup_functions(fixed_list<const char*> v) const {
    return describe_library(with_field(d_, &library_descriptor::startup_functions, v));
  }
  constexpr describe_library loads_driver_by_name_but_in(fixed_list<const char*> driver_free) const {
    return describe_library(with_field(with_field(d_, &library_descriptor::loads_driver, true),
                                       &library_descriptor::driver_free_functions, driver_free));
  }
  // Hooks (library_hooks)
  constexpr describe_library before_version(outcome (*v)(candidate_check&)) const {
    return describe_library(with_hook(d_, &library_hooks::before_version, v));
  }
  constexpr describe_library after_version(outcome (*v)(candidate_check&)) const {
    return describe_library(with_hook(d_, &library_hooks::after_version, v));
  }
  constexpr describe_library adopted(void (*v)(library_state&, platform::library_handle)) const {
    return describe_library(with_hook(d_, &library_hooks::adopted, v));
  }
  constexpr describe_library wrap(platform::any_function (*v)(const char*, platform::any_function)) const {
    return describe_library(with_hook(d_, &library_hooks::wrap, v));
  }
  constexpr describe_library blocks_call(bool (*v)(library_state&, const char*, const char*)) const {
    return describe_library(with_hook(d_, &library_hooks::blocks_call, v));
  }
  constexpr describe_library complete_status(void (*v)(library_state&)) const {
    return describe_library(with_hook(d_, &library_hooks::complete_status, v));
  }
  constexpr describe_library cross_check(void (*v)(report&, report_library&)) const {
    return describe_library(with_hook(d_, &library_hooks::cross_check, v));
  }
  constexpr describe_library install_advice(const char* (*v)()) const {
    return describe_library(with_hook(d_, &library_hooks::install_advice, v));
  }
  constexpr describe_library load_pending(void (*v)(library_state&)) const {
    return describe_library(with_hook(d_, &library_hooks::load_pending, v));
  }

 private:
  constexpr explicit describe_library(const library_descriptor& d) : d_(d) {}
  library_descriptor d_;
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
