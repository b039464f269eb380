// The loading words: every problem the loader and the report's checks record, one named
// constructor each: it takes the facts (the library, paths, outcomes, numbers) and returns the
// {code, fatal, what, path, why, fix} explain() renders; and the other sentences of a search: an
// attempt's detail, a probe child's steps, the log callback's lines. (What a library's hooks say
// is in libraries/words/.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "../../types/status_types.hpp"
#include "../descriptor.hpp"
#include "../missing_dependency.hpp"
#include "../../platform/os_texts.hpp"
#include "../../platform/platform_types.hpp"

namespace cushim {
namespace detail {
namespace {

// --- An attempt: what status.attempts says of one candidate (its detail; its rule when no search
// rule made it) ---
namespace attempt_texts {

constexpr const char* already_loaded_rule = "already loaded in this process";
constexpr const char* default_dll_folders_rule = "the system's default DLL folders";  // Windows' search by bare name

constexpr const char* empty_entry = "an empty entry means the current folder to the system loader; never searched";
constexpr const char* relative_entry = "relative entries depend on the current folder; never searched";
constexpr const char* duplicate = "same file as an earlier candidate";

// trusted_dirs_only, or a library only the system installs (`system_only`), refused a file outside
// the trusted folders; `why`: what makes it untrusted.
inline std::string untrusted(const std::string& why, bool system_only) {
  return why + (system_only ? "; only the system's own copy is used" : "; trusted_dirs_only refuses it");
}

// The file at the path is not the one checked (`why`: pinned_load's changed()); the loader adds
// that it did not load it, the driver's probe (load/driver.hpp) does not.
inline std::string changed_before_load(const std::string& why) {
  return "changed between cushim's check and its load: " + why;
}
inline std::string changed_since_check(const std::string& why) { return changed_before_load(why) + "; not loaded"; }

// Windows: a DLL whose version resource names `other`, a file of another major (`file_version`:
// its FileVersion, or empty).
inline std::string renamed_copy(const library_descriptor& d, const std::string& other,
                                const std::string& file_version) {
  return "a renamed copy: its version resource says it is " + other +
         (file_version.empty() ? "" : " (FileVersion " + file_version + ")") +
         ", another major; this program needs a real " + compiled_file_name(d);
}

inline std::string lacks_version_function(const library_descriptor& d) {
  return std::string("does not export ") + d.version_function + ", so it is not " + d.display_name;
}

// What a copy reports: "cuDNN 9.1.0".
inline std::string reported_version(const library_descriptor& d, long version) {
  return std::string(d.display_name) + " " + version_text(d, version);
}

inline std::string compiled_for_major(int major) {
  return "this program was compiled for major " + std::to_string(major);
}

// The entries of `list` with one outcome beyond those listed one by one.
inline std::string more_entries(const std::string& list, std::size_t count) {
  return std::to_string(count) + " more entries of " + list + " with this outcome, not listed one by one";
}

// probe_in_child: how the child ended (`run`) and in which step (step_texts).
inline std::string child_failure(const platform::child_run& run, const std::string& step, int timeout_ms) {
  std::string how = run.timed_out              ? "did not finish in " + std::to_string(timeout_ms) + " ms"
                    : !run.signal_name.empty() ? "crashed with " + run.signal_name
                    : run.end_unseen
                        ? "ended in a way this process could not see (a handler of this process took its exit "
                          "status: SIGCHLD ignored, or children reaped elsewhere)"
                        : "ended the process (exit status " + std::to_string(run.exit_status) + ")";
  return how + " " + step + ", in a child process (probe_in_child); never loaded in this one";
}

// A load that never finished: the system loader's search for `name`, which it needs, meets `fifo`.
inline std::string load_meets_fifo(const std::string& name, const std::string& fifo) {
  return "the system loader's search for " + name + ", which loading it needs, meets " + fifo + ", " +
         words::fifo_blocks_text;
}

}  // namespace attempt_texts

// --- A probe child's steps, as a failure names them: "crashed with SIGSEGV in cudnnGetVersion" ---
namespace step_texts {

constexpr const char* before_loading = "before loading";  // the child named no step
constexpr const char* loading = "while loading";
constexpr const char* checking = "while cushim checked it";

}  // namespace step_texts

// --- The notes of a load (explain() lists them once each) ---
namespace notes_of {

inline std::string no_probe_child(const std::string& why) {
  return "probe_in_child: " + why + "; candidates are loaded in this process, as without it";
}

// A thread ended (pthread_cancel, pthread_exit) inside the load of `d`, which is then forgotten.
inline std::string load_ended_with_thread(const library_descriptor& d) {
  return "a thread ended (pthread_cancel or pthread_exit) while it loaded " + std::string(d.in_sentence) +
         "; the next call that needs it loads it again";
}

// The log callback threw (`line`: the first line it threw on); noted once.
inline std::string log_callback_threw(const std::string& line) {
  return "the log callback threw an exception (first on the line \"" + line +
         "\"); cushim ignores what it throws and goes on";
}

}  // namespace notes_of

// What a text function returns for a call from inside its library's load on the same thread.
constexpr const char* still_loading_text =
    "cushim: this library is still being loaded on this thread (the call came from inside its load: "
    "the log callback, a library's constructor or a signal handler); call again once the load is done";

// --- The log callback's lines of a search: "cushim: cuDNN: searching for libcudnn.so.9" ---
namespace log_texts {

inline std::string line(const library_descriptor& d, const std::string& text) {
  return std::string("cushim: ") + d.display_name + ": " + text;
}

inline std::string searching(const std::string& file_name) { return "searching for " + file_name; }

inline std::string attempt(const std::string& rule, const std::string& path, outcome result, std::string_view detail) {
  return rule + " " + path + ": " + to_string(result) + (detail.empty() ? "" : " (" + std::string(detail) + ")");
}

inline std::string using_copy(const std::string& path, const std::string& version, const std::string& found_by) {
  return "using " + path + " (" + version + ", found by " + found_by + ")";
}

inline std::string unavailable(error_code code) { return "unavailable: " + std::string(to_string(code)); }

}  // namespace log_texts

namespace problems_of {

// --- The search (loader.hpp) ---

// options.files names a library that has no override (the driver: only the system's own copy).
inline problem ignored_override(const library_descriptor& d, const std::string& rule, const std::string& value) {
  return {error_code::ok,
          false,
          rule + " is ignored: " + d.in_sentence + " has no override",
          value,
          "it is loaded only from where the system installs it",
          "leave " + rule + " empty"};
}

inline problem override_failed(const library_descriptor& d, const std::string& rule, const attempt& a) {
  return {error_code::override_failed,
          true,
          std::string(d.display_name) + " was not loaded from the explicit location " + rule +
              " names; cushim does not fall back to a search when one is given",
          a.path,
          std::string(to_string(a.result)) + (a.detail.empty() ? "" : ": " + a.detail),
          "point " + rule + " at a readable " + compiled_file_name(d) +
              " (or the folder holding it), or unset it to let cushim search"};
}

// The override names one copy, another is already in the process: that one is used.
inline problem other_copy_already_loaded(const library_descriptor& d, const std::string& rule,
                                         const std::string& wanted, const std::string& path) {
  return {error_code::ok,
          false,
          rule + " names " + wanted +
              ", but another copy is already loaded in "
              "this process; cushim uses that one",
          path,
          "two copies of one library in a process break both",
          "find what loads " + path + " first (another framework, a library linked with " +
              platform::linked_with(d.link_name) + ") and make it use " + wanted + ", or point " + rule + " at " +
              path};
}

// Who brought the copy already in the process: the modules whose imports name it (an empty name:
// this program), LD_PRELOAD, or a load at run time.
inline std::string who_loaded(const library_descriptor& d, const std::vector<std::string>& modules,
                              bool preloaded_by_environment, const std::string& path) {
  std::string text;
  for (const std::string& m : modules) {
    text += (text.empty() ? "" : ", ") +
            (m.empty() ? "this program (linked with " + platform::linked_with(d.link_name) + ")" : m);
  }
  if (!text.empty()) return "loaded as a dependency of " + text;
  if (preloaded_by_environment) return "loaded through LD_PRELOAD";
  std::string from_wheel = path.find("site-packages") != std::string::npos ? ", from a pip wheel" : "";
  return "loaded at run time (dlopen) by another library of this process" + from_wheel +
         ", as frameworks such as PyTorch, TensorFlow and ONNX Runtime load it";
}

// The copy already in the process was refused (`detail`: why); `found` is the version it reported.
inline problem already_loaded_unusable(const library_descriptor& d, const std::string& path, const std::string& detail,
                                       const std::string& who, long found_version) {
  std::string name = d.display_name, compiled = version_text(d, d.compiled_version);
  version_parts found = d.decode_version(found_version), want = d.decode_version(d.compiled_version);
  std::string why = detail + "; " + who;
  std::string keep_out =
      "cushim will not load a second copy next to it (two copies of one library in a process break both)";
  if (found_version && found.major == want.major && found.minor < want.minor) {
    std::string older = version_text(d, found_version);
    return {error_code::already_loaded_mismatch,
            true,
            "the " + name + " " + older + " already loaded in this process is older than the " + compiled +
                " this program was compiled with",
            path,
            why + "; " + keep_out,
            "version_policy::same_major accepts it: cushim then uses this " + older +
                ", and each function added "
                "after " +
                older + " returns " + d.missing_returns +
                " and is named in the report. Or make what loads "
                "it load " +
                name + " " + compiled +
                " or newer (for a pip wheel: upgrade it), or build this program "
                "with the " +
                older + " headers"};
  }
  return {error_code::already_loaded_mismatch,
          true,
          "the " + name + " already loaded in this process is unusable",
          path,
          why,
          "something loaded this copy before cushim; " + keep_out +
              ". Remove the other copy or load the right "
              "one first"};
}

// probe_in_child: the child's load of `path` waited on `fifo`, which the system loader met.
inline problem load_waits_on_fifo(const std::string& path, const std::string& fifo, const std::string& cause) {
  return {error_code::ok,
          false,
          "loading " + path + " waits forever on a FIFO where the system loader looks",
          fifo,
          cause + "; without probe_in_child the load would never return",
          "remove " + fifo + ", or take its folder out of " + platform::system_search_variable};
}

// Both in the attempt's detail and in the warning of an older minor.
inline std::string older_than_compiled(const library_descriptor& d) {
  return "older than the headers this program was compiled with (" + version_text(d, d.compiled_version) + ")";
}

// A copy of an older minor, used (the policy or the library accepts it).
inline problem older_minor(const library_descriptor& d, long version, const std::string& path) {
  return {error_code::version_mismatch,
          false,
          std::string(d.display_name) + " " + version_text(d, version) + " is " + older_than_compiled(d),
          path,
          "functions added after " + version_text(d, version) + " " + d.older_minor_effect,
          "install " + std::string(d.display_name) + " " + version_text(d, d.compiled_version) +
              " or newer of the same major"};
}

// One skipped entry of a search list (`list`: its name).
inline problem skipped_entry(const attempt& a, const std::string& list) {
  return {error_code::ok,
          false,
          a.rule +
              (a.result == outcome::skipped_empty ? std::string(" has an empty entry")
                                                  : " has a relative entry '" + a.path + "'") +
              ", which cushim skipped",
          "",
          a.detail,
          "use absolute folders only in " + list};
}

// The skipped entries of a list beyond those warned about one by one.
inline problem more_skipped_entries(const std::string& list, std::size_t count, bool empty) {
  return {error_code::ok,
          false,
          list + " has " + std::to_string(count) + " more " + (empty ? "empty" : "relative") +
              " entries, which cushim skipped",
          "",
          empty ? attempt_texts::empty_entry : attempt_texts::relative_entry,
          "use absolute folders only in " + list};
}

// probe_in_child: a copy whose load crashed, ended or hung the child.
inline problem crashed_copy(const library_descriptor& d, const attempt& a) {
  return {error_code::ok,
          false,
          "a copy of " + std::string(d.display_name) + " that " + a.rule +
              " found crashed, ended the process or hung when loaded",
          a.path,
          a.detail,
          "remove or replace this file: without probe_in_child it takes the program down with it"};
}

// The search ended without a usable copy; `code` says why, `places` how many were tried.
inline problem unavailable(const library_descriptor& d, error_code code, std::size_t places) {
  std::string name = d.display_name;
  std::string what = name + " " + std::to_string(d.compiled_major) + " is unavailable: no usable " +
                     compiled_file_name(d) + " in " + std::to_string(places) + " places searched";
  std::string why, fix;
  switch (code) {
    case error_code::version_mismatch:
      why = "every copy found reports a version this program cannot use (see the list)";
      fix = "install " + name + " " + version_text(d, d.compiled_version) +
            " or a newer minor of the same major, and remove or reorder the other copies";
      break;
    case error_code::load_failed:
      why =
          "a copy was found, but the system loader refused it (its message is in the list: usually a missing "
          "dependency or a file for another architecture)";
      fix = "install what the loader's message names, or a complete copy of " + name;
      break;
    case error_code::not_the_library:
      why = "files with the right name were found, but none is a usable " + name;
      fix = std::string("replace them with a real ") + compiled_file_name(d);
      break;
    case error_code::sublibrary_unusable:
      why = "every copy found was refused for a sub-library it cannot do without (see the list)";
      fix =
          "fix what the list and the warnings above name (a sub-library missing, broken, of another release, "
          "or one whose load would never return), or install one complete " +
          name;
      break;
    default:
      why = "the file is in none of the places listed";
      fix = d.hooks.install_advice
                ? std::string(d.hooks.install_advice())
                : "install " + name + " " + std::to_string(d.compiled_major) + ", or set " + d.override_variable +
                      " to the file or its folder, or add its folder to "
                      "CUSHIM_SEARCH_PATH or " +
                      platform::system_search_variable;
  }
  return {code, true, what, "", why, fix};
}

// The load ended in an exception: out of memory, or one from the library's own code.
inline problem stopped_while_loading() {
  return {error_code::load_failed,
          true,
          "cushim stopped while loading: out of memory, or an exception from the "
          "library's own code",
          "",
          "",
          "see the log lines before this one"};
}

// --- The state (libraries.hpp, implementation.hpp) ---

inline problem not_shimmed(const library_descriptor& d) {
  return {error_code::disabled, false, std::string(d.in_sentence) + " is not shimmed by this build", "",
          d.disabled_why,       ""};
}

inline problem no_such_library() {
  return {error_code::disabled,
          false,
          "status_of() was asked about a value that is not one of cushim::library's",
          "",
          "no library has it; it is never loaded",
          "pass one of cushim::library's values"};
}

// --- The report's checks (checks.hpp) ---

// `advice`: how to install the driver on this platform.
inline problem driver_stub(const std::string& stub, const std::string& advice) {
  return {error_code::not_found,
          false,
          "the CUDA toolkit's link-time stub of the driver is where the system loader looks for the driver",
          stub,
          "a program links against it at build time; at run time every CUDA call through it fails with "
          "CUDA_ERROR_STUB_LIBRARY (34, \"CUDA driver is a stub library\"), and cuDNN cannot start",
          "remove it (or the folder holding it) from where the loader looks: it is a toolkit's lib64/stubs/libcuda.so, "
          "copied or linked; then " +
              advice};
}

inline problem driver_blocked(const std::string& driver_file, const std::string& fifo) {
  return {error_code::not_found,
          true,
          std::string("the system loader's search for ") + driver_file +
              " meets a FIFO before any driver: loading the driver by name would wait forever",
          fifo,
          std::string("it opens the FIFO and waits for a writer; the CUDA runtime and cuDNN load the driver by name "
                      "on their first calls that need it: cudaGetDeviceCount, cudaSetDevice, cudaMalloc, cudnnCreate "
                      "and the like would never return (cushim's own search passed over it)"),
          "remove " + fifo + ", or take its folder out of " + platform::system_search_variable};
}

// A library's calls that would load the driver by name, refused while a FIFO blocks that load:
// all but `driver_free` (named, with "and" before the last).
inline problem driver_calls_blocked(const library_descriptor& d, const std::string& driver_file,
                                    const std::string& fifo) {
  std::string but;
  std::size_t left = d.driver_free_functions.size();
  for (const char* name : d.driver_free_functions) {
    but += name + std::string(--left == 0 ? "" : left == 1 ? " and " : ", ");
  }
  return {error_code::not_found,
          false,
          std::string("every call of ") + d.in_sentence + " but " + but + " would load the driver, and returns " +
              d.blocked_returns + " instead: the system loader's search for " + driver_file +
              " meets a FIFO, on which that load would wait forever",
          fifo,
          std::string(d.display_name) + " loads the driver by name on the first call that needs it; cushim makes no " +
              "such call while the FIFO is there",
          "remove " + fifo + ", or take its folder out of " + platform::system_search_variable +
              "; then restart the program"};
}

inline problem no_driver(const std::string& driver_file, std::size_t places, const std::string& advice) {
  return {error_code::not_found,
          false,
          std::string("no NVIDIA driver was found: ") + driver_file + " is in none of the " + std::to_string(places) +
              " places the system loader looks",
          "",
          "the CUDA runtime and cuDNN can load, but nothing can run on a GPU: cudaGetDeviceCount returns "
          "an error and a count of 0, cudnnCreate returns CUDNN_STATUS_NOT_INITIALIZED",
          advice + "; or run on the CPU"};
}

// A function a hook routes to its fallback: the sub-library it needs is unusable.
inline problem blocked_function(const library_descriptor& d, const std::string& function,
                                const std::string& sublibrary) {
  return {error_code::sublibrary_unusable,
          false,
          function + " needs " + sublibrary + ", which is unusable (see above); it returns " + d.blocked_returns,
          "",
          "",
          ""};
}

inline problem missing_function(const library_descriptor& d, const std::string& function, const status& st) {
  return {
      error_code::ok,
      false,
      function + " is not in " + st.path + " (" + version_text(d, st.version) + "); it returns " + d.missing_returns,
      "",
      "",
      ""};
}

}  // namespace problems_of
}  // namespace
}  // namespace detail
}  // namespace cushim
