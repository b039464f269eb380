// Loads one library once: the explicit override, a copy already in the process, then the search
// list; checks each candidate (file kind, loader, version) and records what happened.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "elf_dependencies.hpp"
#include "library_spec.hpp"
#ifdef _WIN32
#include "pe_dependencies.hpp"
#endif
#include "search.hpp"
#include "sublibraries.hpp"
#include "versions.hpp"

namespace cushim {
namespace detail {

struct library_state {
  explicit library_state(const library_spec& s) : spec(s) { st.lib = s.lib; }
  const library_spec& spec;
  status st;
  platform::library_handle handle = nullptr;
  std::once_flag once;
  std::atomic<bool> loaded{false};
  bool fail_fast = false;    // set once, while loading (options.fail_fast or CUSHIM_FAIL_FAST=1)
  std::mutex missing_mutex;  // functions the loaded copy lacks, or whose sub-library is unusable
  std::vector<std::string> missing_functions;
  std::vector<std::string> blocked_functions;  // "cudnnConvolutionForward|cnn"
  // cuDNN's sub-libraries that cuDNN itself will load are checked when first needed, not at
  // load: on the first call into one, or for the first full report.
  std::recursive_mutex sublibrary_mutex;  // recursive: the log callback may ask for a report
  std::vector<bool> sublibrary_pending;   // per st.sublibraries entry; only a usable one is still to check
  std::vector<platform::library_handle> sublibrary_handles;
  bool sublibraries_reported = false;
};

struct shim_state {
  std::mutex options_mutex;
  options opts;
  std::atomic<bool> started{false};
  std::mutex notes_mutex;  // refused configure() calls and the like
  std::vector<std::string> notes;
  library_state cudnn{cudnn_spec()};
  library_state cudart{cudart_spec()};
};

// Never destroyed: stubs may be called from other objects' destructors at exit.
inline shim_state& shim() {
  static shim_state* s = new shim_state;
  return *s;
}

inline void log_line(const options& opts, const std::string& line) {
  if (opts.log) opts.log(line, opts.log_context);
}

// Reports a refused call or similar event that happens after loading started.
inline void add_note(const std::string& text) {
  shim_state& s = shim();
  {
    std::lock_guard<std::mutex> lock(s.notes_mutex);
    s.notes.push_back(text);
  }
  std::lock_guard<std::mutex> lock(s.options_mutex);
  log_line(s.opts, "cushim: " + text);
}

inline version_parts decode_version(const library_spec& spec, long v) {
  return spec.lib == library::cudnn ? decode_cudnn_version(v) : decode_cuda_version(v);
}

inline std::string version_text(const library_spec& spec, long v) {
  return format_version(decode_version(spec, v), spec.lib == library::cudnn);
}

// The major encoded in the file name the search asked for ("libcudart.so.13" -> 13;
// "cudart64_13.dll" -> 13, "cudart64_110.dll" -> 11).
inline int major_from_file_name(const std::string& name) {
#ifdef _WIN32
  std::size_t at = name.find("64_");
  int digits = at == std::string::npos ? 0 : std::atoi(name.c_str() + at + 3);
  return digits >= 100 ? digits / 10 : digits;
#else
  std::size_t at = name.find(".so.");
  return at == std::string::npos ? 0 : std::atoi(name.c_str() + at + 4);
#endif
}

// The variable through which the system loader's own search can be extended, how a program
// links a library at build time, and where the cuDNN build for one CUDA major comes from.
#ifdef _WIN32
constexpr const char* system_search_variable = "PATH";
constexpr const char* link_time_use = "an import library such as cudnn.lib";
inline std::string cudnn_build_for_cuda(int cudnn_major, int cuda_major) {
  return "nvidia-cudnn-cu" + std::to_string(cuda_major) + ", or the bin\\" + std::to_string(cuda_major) +
         ".x folder of NVIDIA's cuDNN " + std::to_string(cudnn_major) + " installer";
}
#else
constexpr const char* system_search_variable = "LD_LIBRARY_PATH";
constexpr const char* link_time_use = "-l";
inline std::string cudnn_build_for_cuda(int cudnn_major, int cuda_major) {
  return "nvidia-cudnn-cu" + std::to_string(cuda_major) + " or libcudnn" + std::to_string(cudnn_major) + "-cuda-" +
         std::to_string(cuda_major);
}
#endif

class loader {
 public:
  loader(library_state& lib, const options& opts) : lib_(lib), spec_(lib.spec), opts_(opts) {}

  void run() {
    status& st = lib_.st;
    st.compiled_version = spec_.compiled_version;
    log("searching for " + spec_.file_name);
    // A copy already in the process comes first even before an override: two copies of one
    // library in a process break both.
    search_inputs in{&opts_.search_dirs, opts_.use_environment, platform::executable_path(), module_path()};
    if (try_already_loaded()) {
      note_other_copies(search_candidates(spec_, in), 0);
      return finish();
    }
    if (st.code == error_code::already_loaded_mismatch || try_override()) return finish();
    if (st.code == error_code::override_failed) return finish();
    std::vector<candidate> candidates = search_candidates(spec_, in);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!try_candidate(candidates[i])) continue;
      note_other_copies(candidates, i + 1);
      return finish();
    }
    st.code = failure_code();
    finish();
  }

 private:
  static std::string module_path() {
    static const char anchor = 0;  // an address inside whichever module holds cushim
    return platform::module_path_of(&anchor);
  }

  void log(const std::string& text) { log_line(opts_, std::string("cushim: ") + spec_.display_name + ": " + text); }

  void record(const candidate& c, outcome result, std::string detail = {}) {
    log(c.rule + " " + c.path + ": " + to_string(result) + (detail.empty() ? "" : " (" + detail + ")"));
    lib_.st.attempts.push_back({c.rule, c.path, result, std::move(detail)});
  }

  // Copies the search would reach after the one in use, and other majors in the same folders:
  // listed (never loaded), since a shadowed or stale copy is what users trip over next.
  void note_other_copies(const std::vector<candidate>& candidates, std::size_t from) {
    std::string used = platform::canonical_path(lib_.st.path);
    std::vector<std::string> seen{used}, folders;
    auto note = [&](const std::string& rule, const std::string& path, outcome kind, const std::string& detail) {
      std::string canonical = platform::canonical_path(path);
      for (const std::string& s : seen) {
        if (s == canonical) return;
      }
      seen.push_back(canonical);
      if (platform::check_file(path).state != platform::file_state::regular) return;
      lib_.st.other_copies.push_back({rule, path, kind, detail});
    };
    for (std::size_t i = from; i < candidates.size(); ++i) {
      if (candidates[i].kind != entry_kind::absolute) continue;
      note(candidates[i].rule, candidates[i].path, outcome::shadowed, "not loaded: an earlier candidate won");
    }
    for (const candidate& c : candidates) {
      if (c.kind != entry_kind::absolute) continue;
      std::string folder = parent_dir(c.path);
      bool known = false;
      for (const std::string& f : folders) known = known || f == folder;
      if (known) continue;
      folders.push_back(folder);
      for (const std::string& other : spec_.other_major_files) {
        note(c.rule, join_path(folder, other), outcome::other_major,
             "another major version; this program needs " + spec_.file_name);
      }
    }
  }

  // The explicit file or folder from options or CUSHIM_*_PATH, if one is given.
  bool override_candidate(candidate& c) const {
    bool cudnn = spec_.lib == library::cudnn;
    std::string value = cudnn ? opts_.cudnn_file : opts_.cudart_file;
    std::string rule = cudnn ? "options.cudnn_file" : "options.cudart_file";
    if (value.empty() && opts_.use_environment) {
      const char* env = platform::get_environment(spec_.override_variable);
      if (!env || !*env) return false;  // set but empty counts as unset
      value = env;
      rule = spec_.override_variable;
    }
    if (value.empty()) return false;
    candidate_list list(spec_.file_name);
    if (is_absolute_path(value) && !platform::is_folder(value)) {
      list.add_file(rule, value);
    } else {
      list.add_dir(rule, value);
    }
    c = list.take().front();
    return true;
  }

  bool try_override() {
    candidate c{};
    if (!override_candidate(c)) return false;
    const std::string& rule = c.rule;
    if (try_candidate(c)) return true;
    lib_.st.code = error_code::override_failed;
    const attempt& a = lib_.st.attempts.back();
    lib_.st.problems.push_back({error_code::override_failed, true,
                                std::string(spec_.display_name) + " was not loaded from the explicit location " + rule +
                                    " names; cushim does not fall back to a search when one is given",
                                a.path, std::string(to_string(a.result)) + (a.detail.empty() ? "" : ": " + a.detail),
                                "point " + rule + " at a readable " + spec_.file_name +
                                    " (or the folder holding it), or unset it to let cushim search"});
    return false;
  }

  bool try_already_loaded() {
    std::string path;
    platform::library_handle h = platform::find_loaded(spec_.file_name, path);
    if (!h) return false;
    candidate c{"already loaded in this process", path, entry_kind::absolute};
    candidate wanted{};
    if (override_candidate(wanted) && platform::canonical_path(wanted.path) != platform::canonical_path(path)) {
      lib_.st.problems.push_back({error_code::ok, false,
                                  wanted.rule + " names " + wanted.path +
                                      ", but another copy is already loaded in "
                                      "this process; cushim uses that one",
                                  path, "two copies of one library in a process break both",
                                  "find what loads " + path + " first (another framework, a library linked with " +
                                      link_time_use + ") and make it use " + wanted.path + ", or point " + wanted.rule +
                                      " at " + path});
    }
    if (accept_loaded(h, c, outcome::reused)) return true;
    std::string detail = lib_.st.attempts.back().detail;
    lib_.st.code = error_code::already_loaded_mismatch;
    lib_.st.problems.push_back(
        {error_code::already_loaded_mismatch, true,
         std::string("the ") + spec_.display_name + " already loaded in this process is unusable", path, detail,
         std::string("something loaded this copy before cushim (another framework or a library linked with ") +
             link_time_use +
             "); cushim will not load a second copy next to it. Remove the other copy or load the right one first"});
    return false;
  }

  // trusted_dirs_only, from the options or CUSHIM_TRUSTED_DIRS_ONLY=1.
  bool trusted_only() const {
    if (opts_.trusted_dirs_only) return true;
    const char* env = opts_.use_environment ? platform::get_environment("CUSHIM_TRUSTED_DIRS_ONLY") : nullptr;
    return env && std::string(env) == "1";
  }

  bool try_candidate(const candidate& c) {
    if (c.kind == entry_kind::empty) {
      record(c, outcome::skipped_empty, "an empty entry means the current folder to the system loader; never searched");
      return false;
    }
    if (c.kind == entry_kind::relative) {
      record(c, outcome::skipped_relative, "relative entries depend on the current folder; never searched");
      return false;
    }
#ifdef _WIN32
    if (c.kind == entry_kind::default_dirs) return try_default_dirs(c);
#endif
    std::string canonical = platform::canonical_path(c.path);
    for (const std::string& seen : seen_) {
      if (seen == canonical) {
        record(c, outcome::duplicate, "same file as an earlier candidate");
        return false;
      }
    }
    seen_.push_back(canonical);
    platform::file_check fc = platform::check_file(c.path);
    switch (fc.state) {
      case platform::file_state::absent: record(c, outcome::absent); return false;
      case platform::file_state::folder_absent: record(c, outcome::folder_absent); return false;
      case platform::file_state::not_a_file: record(c, outcome::not_a_file, fc.detail); return false;
      case platform::file_state::unreadable: record(c, outcome::unreadable, fc.detail); return false;
      case platform::file_state::regular: break;
    }
    std::string untrusted;
    if (trusted_only() && !platform::trusted_location(c.path, untrusted)) {
      record(c, outcome::untrusted_location, untrusted + "; trusted_dirs_only refuses it");
      return false;
    }
    if (!inspect_file(c)) return false;
    platform::load_result r = platform::load_library(c.path);
    if (!r.handle) {
      explain_load_failure(c, r.error);
      return false;
    }
    return accept_loaded(r.handle, c, outcome::loaded);
  }

#ifdef _WIN32
  // The bare name through the system's default DLL folders; what it finds is checked once loaded.
  bool try_default_dirs(const candidate& c) {
    platform::load_result r = platform::load_from_default_dirs(c.path);
    if (!r.handle) {
      record(c, r.code == ERROR_MOD_NOT_FOUND ? outcome::absent : outcome::load_failed, r.error);
      return false;
    }
    candidate found{c.rule, platform::loaded_path_of(r.handle), entry_kind::absolute};
    std::string canonical = platform::canonical_path(found.path);
    for (const std::string& seen : seen_) {
      if (seen != canonical) continue;
      platform::unload_library(r.handle);
      record(found, outcome::duplicate, "same file as an earlier candidate");
      return false;
    }
    seen_.push_back(canonical);
    return accept_loaded(r.handle, found, outcome::loaded);
  }

#endif

  // The file's header, read before the system loader sees it: format and architecture.
  bool inspect_file(const candidate& c) {
    std::string detail;
#ifdef _WIN32
    outcome result = inspect_pe_file(c.path, detail);
#else
    outcome result = inspect_elf_file(c.path, detail);
#endif
    if (result != outcome::loaded) record(c, result, detail);
    return result == outcome::loaded;
  }

  // The loader's message alone often names the wrong file; the dependency walk names the one
  // that is missing and the file that needs it.
  void explain_load_failure(const candidate& c, const std::string& loader_message) {
#ifdef _WIN32
    std::vector<missing_dependency> missing = pe_dependency_resolver().missing(c.path);
#else
    std::vector<missing_dependency> missing = elf_dependency_resolver().missing(c.path);
#endif
    if (missing.empty()) {
      record(c, outcome::load_failed, loader_message);
      return;
    }
    std::string detail;
    for (const missing_dependency& m : missing) detail += (detail.empty() ? "" : "; ") + describe(m);
    record(c, outcome::missing_dependency, detail);
  }

  // A loaded candidate: cuDNN's sub-libraries first (cuDNN 9 aborts on any call without its
  // root sub-library), then the version. Unloads and records when refused.
  bool accept_loaded(platform::library_handle h, const candidate& c, outcome success) {
    std::string detail;
    outcome result = outcome::loaded;
#ifdef _WIN32
    result = check_not_renamed(c.path, detail);
#endif
    if (result == outcome::loaded && spec_.lib == library::cudnn) result = preflight_sublibraries(c.path, detail);
    if (result == outcome::loaded) result = check_version(h, c.path, detail);
    if (result == outcome::loaded && spec_.lib == library::cudnn) result = check_sublibrary_versions(detail);
    if (result != outcome::loaded) {
      release_preloads();
      platform::unload_library(h);
      record(c, result, detail);
      return false;
    }
    record(c, success, detail);
    adopt(h, c, c.path);
    return true;
  }

  outcome preflight_sublibraries(const std::string& path, std::string& detail) {
    sublibrary_finder finder(path);
    std::vector<sublibrary> subs;
    for (const sublibrary_spec& s : cudnn_sublibrary_specs(spec_.compiled_major)) {
      subs.push_back(locate_sublibrary(s, spec_.compiled_major, path, finder));
    }
    sublibrary& root = subs.front();
    for (sublibrary& s : subs) {
      if (&s == &root || !s.usable || !root.version || !s.version || s.version == root.version) continue;
      s.usable = false;
      s.problem = s.path + " is cuDNN " + cudnn_version_text(s.version) + ", but " + root.path + " is " +
                  cudnn_version_text(root.version) + ": sub-libraries of two installations";
    }
    lib_.sublibrary_pending.assign(subs.size(), false);
    for (std::size_t i = 0; i < subs.size(); ++i) {
      sublibrary& s = subs[i];
      if (!s.usable) continue;
      // The root, and a copy cuDNN's own load would miss, are loaded now: cuDNN's by-name load
      // then finds them in the process. The others wait until they are needed.
      if (s.required || s.preloaded) {
        load_sublibrary(s, finder, preloads_);
      } else {
        lib_.sublibrary_pending[i] = true;
      }
    }
    lib_.st.sublibraries = subs;
    if (root.usable) return outcome::loaded;
    detail = "its root sub-library " + root.file_name + " is unusable: " + root.problem +
             ". cuDNN would abort the process at its first call";
    sublibrary_failure_ = true;
    return outcome::sublibrary_unusable;
  }

  // The file's own word for a runtime that reports 0: its version resource on Windows, else the
  // major in the file name.
  long cuda_version_from_file(const std::string& path, std::string& source) const {
#ifdef _WIN32
    platform::file_source file(path);
    if (long v = cuda_version_from_resource(read_pe_version(file))) {
      source = "version resource (cudaRuntimeGetVersion reported 0)";
      return v;
    }
#else
    (void)path;
#endif
    source = "file name (cudaRuntimeGetVersion reported 0)";
    return long(major_from_file_name(spec_.file_name)) * 1000;
  }

#ifdef _WIN32
  // A DLL renamed to pass for another major (cudart64_12.dll copied to cudart64_110.dll) still
  // gives its real name in its version resource.
  outcome check_not_renamed(const std::string& path, std::string& detail) {
    platform::file_source file(path);
    pe_info info = read_pe_version(file);
    for (const std::string& other : spec_.other_major_files) {
      if (info.original_filename.empty() || !pe_format::same_name_ignoring_case(info.original_filename, other))
        continue;
      detail = "a renamed copy: its version resource says it is " + other +
               (info.file_version.empty() ? "" : " (FileVersion " + info.file_version + ")") +
               ", another major; this program needs a real " + spec_.file_name;
      mismatch_seen_ = true;
      return outcome::wrong_version;
    }
    return outcome::loaded;
  }
#endif

  // After cudnnGetVersion: every sub-library that says its version must agree with it.
  outcome check_sublibrary_versions(std::string& detail) {
    for (sublibrary& s : lib_.st.sublibraries) {
      if (!s.usable || !s.version || s.version == version_) continue;
      s.usable = false;
      s.problem = s.path + " is cuDNN " + cudnn_version_text(s.version) + ", but the main library reports " +
                  cudnn_version_text(version_) + ": parts of two installations";
      if (s.required) {
        detail += "; " + s.problem;
        sublibrary_failure_ = true;
        return outcome::sublibrary_unusable;
      }
    }
    return outcome::loaded;
  }

  void release_preloads() {
    for (platform::library_handle h : preloads_) platform::unload_library(h);
    preloads_.clear();
    lib_.sublibrary_pending.clear();
  }

  // Reads the version the file reports and applies the policy: loaded, not_the_library or
  // wrong_version, with the reason in detail.
  outcome check_version(platform::library_handle h, const std::string& path, std::string& detail) {
    long v = 0;
    std::string source = spec_.version_function;
    platform::any_function f = platform::find_symbol(h, spec_.version_function);
    if (!f) {
      detail = std::string("does not export ") + spec_.version_function + ", so it is not " + spec_.display_name;
      return outcome::not_the_library;
    }
    if (spec_.lib == library::cudnn) {
      v = long(reinterpret_cast<decltype(&::cudnnGetVersion)>(f)());
    } else {
      int reported = 0;
      if (reinterpret_cast<decltype(&::cudaRuntimeGetVersion)>(f)(&reported) != cudaSuccess) reported = 0;
      v = reported;
      if (v == 0) v = cuda_version_from_file(path, source);  // CUDA 13 reports 0 without a driver
    }
    version_parts got = decode_version(spec_, v), want = decode_version(spec_, spec_.compiled_version);
    detail = spec_.display_name + std::string(" ") + version_text(spec_, v);
    if (got.major != want.major) {
      detail += "; this program was compiled for major " + std::to_string(want.major);
      mismatch_seen_ = true;
      return outcome::wrong_version;
    }
    if (got.minor < want.minor) {
      std::string older =
          "older than the headers this program was compiled with (" + version_text(spec_, spec_.compiled_version) + ")";
      if (opts_.policy == version_policy::same_major_newer_minor) {
        detail += "; " + older;
        mismatch_seen_ = true;
        return outcome::wrong_version;
      }
      lib_.st.problems.push_back({error_code::version_mismatch, false,
                                  std::string(spec_.display_name) + " " + version_text(spec_, v) + " is " + older, path,
                                  "functions added after " + version_text(spec_, v) +
                                      " return CUDNN_STATUS_NOT_SUPPORTED / cudaErrorSharedObjectSymbolNotFound",
                                  "install " + std::string(spec_.display_name) + " " +
                                      version_text(spec_, spec_.compiled_version) + " or newer of the same major"});
    }
    version_ = v;
    version_source_ = source;
    return outcome::loaded;
  }

  // cuDNN is built for one CUDA major; mixing it with another major's runtime is unsupported.
  void note_cuda_build(platform::library_handle h) {
    platform::any_function f = platform::find_symbol(h, "cudnnGetCudartVersion");
    if (!f) return;
    lib_.st.built_for_cuda = int(reinterpret_cast<decltype(&::cudnnGetCudartVersion)>(f)());
    int built = lib_.st.built_for_cuda / 1000, compiled = CUDART_VERSION / 1000;
    if (built == 0 || built == compiled) return;
    lib_.st.problems.push_back(
        {error_code::version_mismatch, false,
         "this cuDNN was built for CUDA " + std::to_string(built) + ", but the program was compiled for CUDA " +
             std::to_string(compiled),
         lib_.st.path,
         "cudnnGetCudartVersion() reports " + format_version(decode_cuda_version(lib_.st.built_for_cuda), false),
         "install the cuDNN build for CUDA " + std::to_string(compiled) + " (for example " +
             cudnn_build_for_cuda(spec_.compiled_major, compiled) + ")"});
  }

  void adopt(platform::library_handle h, const candidate& c, const std::string& path) {
    lib_.sublibrary_handles.insert(lib_.sublibrary_handles.end(), preloads_.begin(), preloads_.end());
    preloads_.clear();
    lib_.handle = h;
    lib_.st.code = error_code::ok;
    lib_.st.version = int(version_);
    lib_.st.version_source = version_source_;
    lib_.st.path = path;
    lib_.st.found_by = c.rule;
    if (spec_.lib == library::cudnn) note_cuda_build(h);
    lib_.loaded.store(true, std::memory_order_release);
    log("using " + path + " (" + version_text(spec_, lib_.st.version) + ", found by " + c.rule + ")");
  }

  error_code failure_code() const {
    if (mismatch_seen_) return error_code::version_mismatch;
    if (sublibrary_failure_) return error_code::sublibrary_unusable;
    error_code code = error_code::not_found;
    for (const attempt& a : lib_.st.attempts) {
      if (a.result == outcome::load_failed) return error_code::load_failed;
      if (a.result == outcome::not_the_library || a.result == outcome::not_a_file || a.result == outcome::unreadable)
        code = error_code::not_the_library;
    }
    return code;
  }

  void finish() {
    status& st = lib_.st;
    for (const attempt& a : st.attempts) {
      if (a.result == outcome::skipped_relative || a.result == outcome::skipped_empty) {
        st.problems.push_back({error_code::ok, false,
                               a.rule +
                                   (a.result == outcome::skipped_empty ? std::string(" has an empty entry")
                                                                       : " has a relative entry '" + a.path + "'") +
                                   ", which cushim skipped",
                               "", a.detail, "use absolute folders only in " + a.rule.substr(0, a.rule.find('['))});
      }
    }
    if (st.code != error_code::ok && st.code != error_code::override_failed &&
        st.code != error_code::already_loaded_mismatch) {
      st.problems.push_back(unavailable_problem(st.code));
    }
    if (st.code != error_code::ok) log("unavailable: " + std::string(to_string(st.code)));
  }

  problem unavailable_problem(error_code code) const {
    std::string what = std::string(spec_.display_name) + " " + std::to_string(spec_.compiled_major) +
                       " is unavailable: no usable " + spec_.file_name + " in " +
                       std::to_string(lib_.st.attempts.size()) + " places searched";
    std::string why, fix;
    switch (code) {
      case error_code::version_mismatch:
        why = "every copy found reports a version this program cannot use (see the list)";
        fix = "install " + std::string(spec_.display_name) + " " + version_text(spec_, spec_.compiled_version) +
              " or a newer minor of the same major, and remove or reorder the other copies";
        break;
      case error_code::load_failed:
        why =
            "a copy was found, but the system loader refused it (its message is in the list: usually a missing "
            "dependency or a file for another architecture)";
        fix = "install what the loader's message names, or a complete copy of " + std::string(spec_.display_name);
        break;
      case error_code::not_the_library:
        why = "files with the right name were found, but none is a usable " + std::string(spec_.display_name);
        fix = "replace them with a real " + spec_.file_name;
        break;
      default:
        why = "the file is in none of the places listed";
        fix = std::string("install ") + spec_.display_name + " " + std::to_string(spec_.compiled_major) + ", or set " +
              spec_.override_variable +
              " to the file or its folder, or add its folder to "
              "CUSHIM_SEARCH_PATH or " +
              system_search_variable;
    }
    return {code, true, what, "", why, fix};
  }

  library_state& lib_;
  const library_spec& spec_;
  const options& opts_;
  std::vector<std::string> seen_;
  bool mismatch_seen_ = false;
  bool sublibrary_failure_ = false;
  std::vector<platform::library_handle> preloads_;  // sub-libraries loaded for the candidate being tried
  long version_ = 0;
  std::string version_source_;
};

// Loads on first use from any thread; later calls return at once.
// The libraries this thread is loading right now (one bit each), so a log callback that calls
// explain() or status_of() sees the state so far instead of waiting on its own call_once.
inline thread_local unsigned loading_on_this_thread = 0;

inline bool ensure_loaded(library_state& lib) {
  if (lib.loaded.load(std::memory_order_acquire)) return true;
  const unsigned bit = 1u << unsigned(lib.spec.lib);
  if (loading_on_this_thread & bit) return false;
  std::call_once(lib.once, [&lib, bit] {
    loading_on_this_thread |= bit;
    shim_state& s = shim();
    s.started.store(true);
    options opts;
    {
      std::lock_guard<std::mutex> lock(s.options_mutex);
      opts = s.opts;
    }
    const char* fail_fast = opts.use_environment ? platform::get_environment("CUSHIM_FAIL_FAST") : nullptr;
    lib.fail_fast = opts.fail_fast || (fail_fast && std::string(fail_fast) == "1");
#if defined(__cpp_exceptions)
    try {
      loader(lib, opts).run();
    } catch (...) {
      lib.st.code = error_code::load_failed;
      lib.st.problems.push_back({error_code::load_failed, true,
                                 "cushim stopped while loading (out of memory, or the "
                                 "log callback threw)",
                                 "", "", "see the log lines before this one"});
    }
#else
    loader(lib, opts).run();
#endif
    loading_on_this_thread &= ~bit;
  });
  return lib.loaded.load(std::memory_order_acquire);
}

// The first call into a sub-library that was not checked at load: cushim loads it by path, as
// cuDNN would by name, and a failure gates its functions instead of letting cuDNN abort.
inline const sublibrary* sublibrary_checked_for(library_state& lib, const char* column) {
  std::lock_guard<std::recursive_mutex> lock(lib.sublibrary_mutex);
  const sublibrary* found = sublibrary_for(lib.st.sublibraries, column);
  if (!found) return nullptr;
  std::size_t i = std::size_t(found - lib.st.sublibraries.data());
  // A sub-library found unusable since (another version than the main library) stays so.
  if (i < lib.sublibrary_pending.size() && lib.sublibrary_pending[i] && found->usable) {
    sublibrary_finder finder(lib.st.path);
    load_sublibrary(lib.st.sublibraries[i], finder, lib.sublibrary_handles);
    lib.sublibrary_pending[i] = false;
  }
  return found;
}

// cuDNN 9 loads cuBLASLt by name, not as an import, when some engines run (matrix
// multiplications, some convolutions, RNNs, attention): a missing one shows only then ("Could not
// locate cublasLt64_12.dll"). Reported as a warning; the rest of cuDNN works without it.
inline void note_missing_cublaslt(library_state& lib, sublibrary_finder& finder) {
  int cuda_major = lib.st.built_for_cuda ? lib.st.built_for_cuda / 1000 : CUDART_VERSION / 1000;
  std::string name = cublaslt_file_name(cuda_major);
  std::vector<std::string> searched;
  if (!finder.by_name(name, searched).empty()) return;
  std::string where;
  for (const std::string& s : searched) where += (where.empty() ? "" : ", ") + s;
  std::string major = std::to_string(cuda_major);
  lib.st.problems.push_back(
      {error_code::ok, false,
       "cuDNN loads " + name +
           " by name when some of its engines run (matrix multiplications, some convolutions, RNNs, attention), "
           "and its search would not find it",
       "", "looked in: " + where + "; those engines fail when first used, the rest of cuDNN works",
       "install cuBLAS for CUDA " + major + " (the CUDA " + major + " toolkit, or the pip package nvidia-cublas-cu" +
           major + ") in a folder cuDNN's search reaches (" + system_search_variable + ")"});
}

// Before status_of() hands out the status: every sub-library not yet checked is checked from its
// files (nothing is loaded for a report), and each unusable one is listed as a problem, once.
inline void complete_sublibrary_report(library_state& lib) {
  std::lock_guard<std::recursive_mutex> lock(lib.sublibrary_mutex);
  if (lib.sublibraries_reported || !lib.loaded.load(std::memory_order_acquire)) return;
  lib.sublibraries_reported = true;
  if (lib.spec.lib != library::cudnn || lib.st.code != error_code::ok) return;
  std::vector<sublibrary>& subs = lib.st.sublibraries;
  sublibrary_finder finder(lib.st.path);
  for (std::size_t i = 0; i < subs.size() && i < lib.sublibrary_pending.size(); ++i) {
    if (!lib.sublibrary_pending[i] || !subs[i].usable) continue;
    check_sublibrary(subs[i], finder);
    lib.sublibrary_pending[i] = false;
  }
  for (const sublibrary& sub : subs) {
    if (sub.usable || sub.required) continue;
    lib.st.problems.push_back({error_code::sublibrary_unusable, false,
                               "cuDNN's sub-library " + sub.file_name +
                                   " is unusable; the cuDNN functions it serves return "
                                   "CUDNN_STATUS_NOT_INITIALIZED instead of letting cuDNN abort the process",
                               sub.path, sub.problem,
                               "install one complete cuDNN " + std::to_string(lib.spec.compiled_major) + " (every " +
                                   sublibrary_file_name("*", lib.spec.compiled_major) +
                                   " of one release, in one folder) and remove partial copies"});
  }
  if (lib.spec.compiled_major >= 9) note_missing_cublaslt(lib, finder);
}

}  // namespace detail
}  // namespace cushim
