// What only cuDNN does (its record, tools/libraries.json, names each hook): its sub-libraries
// (loaded by cuDNN by name, checked before any cuDNN function runs), the cuBLASLt and NVRTC it loads
// by name, and the CUDA major it was built for.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "../search/candidate_check.hpp"
#include "../probe/child_probe.hpp"
#include "../search/descriptor.hpp"
#include "../report/report.hpp"
#include "../search/words/loading.hpp"
#include "../search/sublibraries.hpp"
#include "cublasLt.hpp"
#include "nvrtc.hpp"
#include "words/cudnn.hpp"

namespace cushim {
namespace detail {
namespace {

namespace cudnn_hooks {

// A loaded candidate, before cudnnGetVersion (cuDNN 9 aborts on any call without its root
// sub-library): where each sub-library is (the known ones, and any other found beside the main
// library), of which version; the root, and any copy cuDNN's own search would miss or take of
// another release, are loaded now. The others wait until they are needed.
inline outcome check_sublibraries(candidate_check& c) {
  const int major = c.lib.desc->compiled_major;
  sublibrary_finder finder(c.path);
  std::vector<sublibrary_spec> specs = cudnn_sublibrary_specs(major);
  std::vector<sublibrary_spec> beside = sublibraries_beside(c.path, major, specs);
  specs.insert(specs.end(), beside.begin(), beside.end());
  std::vector<sublibrary> subs;
  for (const sublibrary_spec& spec : specs) {
    sublibrary s = locate_sublibrary(spec, major, c.path, finder);
    // One a later release brought is expected only when the root (first) says it is that release.
    if (s.path.empty() && spec.since && (subs.empty() || subs.front().version < spec.since)) continue;
    subs.push_back(std::move(s));
  }
  sublibrary& root = subs.front();
  for (sublibrary& s : subs) {
    if (&s == &root || !s.usable || !root.version || !s.version || s.version == root.version) continue;
    s.usable = false;
    s.problem = words::sublibrary_of_other_install(s.path, cudnn_version_text(s.version), root.path,
                                                   cudnn_version_text(root.version));
  }
  c.lib.sublibrary_pending.assign(subs.size(), false);
  for (std::size_t i = 0; i < subs.size(); ++i) {
    sublibrary& s = subs[i];
    if (!s.usable) continue;
    if (s.required || s.preloaded) {
      load_sublibrary(s, finder, c.preloads);  // cuDNN's by-name load then finds it in the process
    } else {
      c.lib.sublibrary_pending[i] = true;
    }
  }
  c.lib.st.sublibraries = subs;
  if (root.usable) return outcome::loaded;
  const std::string blocker = blocker_of(root);
  c.detail = words::root_sublibrary_unusable(root.file_name, root.problem, !blocker.empty());
  c.part_unusable = true;
  if (!blocker.empty()) {
    c.lib.st.problems.push_back(problems_of::root_sublibrary_blocked(root.file_name, blocker, c.path));
  }
  return outcome::sublibrary_unusable;
}

// After cudnnGetVersion: every sub-library that says its version must agree with it.
inline outcome check_sublibrary_versions(candidate_check& c) {
  for (sublibrary& s : c.lib.st.sublibraries) {
    if (!s.usable || !s.version || s.version == c.version) continue;
    s.usable = false;
    s.problem =
        words::sublibrary_of_other_release(s.path, cudnn_version_text(s.version), cudnn_version_text(c.version));
    if (s.required) {
      c.detail += "; " + s.problem;
      c.part_unusable = true;
      return outcome::sublibrary_unusable;
    }
  }
  return outcome::loaded;
}

// cuDNN is built for one CUDA major; mixing it with another major's runtime is unsupported.
inline void note_cuda_build(library_state& lib, platform::library_handle h) {
  platform::any_function f = platform::find_symbol(h, "cudnnGetCudartVersion");
  if (!f) return;
  lib.st.built_for_cuda = int(reinterpret_cast<decltype(&::cudnnGetCudartVersion)>(f)());
  int built = lib.st.built_for_cuda / 1000, compiled = compiled_cuda_major();
  if (built == 0 || built == compiled) return;
  lib.st.problems.push_back(problems_of::cudnn_built_for_other_cuda(
      built, compiled, lib.st.path, format_version(decode_cuda_version(lib.st.built_for_cuda), false),
      words::cudnn_build_for_cuda(lib.desc->compiled_major, compiled, platform::windows_names)));
}

inline problem unusable_sublibrary_problem(const sublibrary& sub, int major);

// Loads a sub-library no call has needed yet by path, as cuDNN would by name, in this process, as
// the first call into it does; a refusal makes it unusable, which gates its functions. Under
// probe_in_child it is loaded in a child first, and with `in_child_only` only there (the doctor's
// check: the first call still loads it here). Under the completion lock. Once the status is handed
// out (sublibraries_reported) it is not changed: a refusal is kept beside it.
inline void load_pending_sublibrary(library_state& lib, std::size_t i, bool in_child_only) {
  sublibrary sub = lib.st.sublibraries[i];
  const child_probe_settings probe = current_child_probe_settings();
  bool loaded_here = false;
  if (probe.enabled) {
    std::string refusal;
    bool load_unfinished = false;  // the child was killed while it loaded: a FIFO may have kept it waiting
    std::string failure = failure_in_child({load_only_request, sub.path}, probe, &refusal, &load_unfinished);
    if (!failure.empty() || !refusal.empty()) {
      std::string cause;
      if (load_unfinished && !fifo_blocking_load(sub.path, cause).empty()) failure += "; " + cause;
      sub.usable = false;
      sub.problem = failure.empty() ? words::load_refused(sub.path, refusal) : sub.path + " " + failure;
    }
  }
  if (sub.usable && (!probe.enabled || !in_child_only)) {
    sublibrary_finder finder(lib.st.path);
    loaded_here = load_sublibrary(sub, finder, lib.sublibrary_handles);
  }
  if (!sub.usable || loaded_here) lib.sublibrary_pending[i] = false;
  if (sub.usable) return;
  if (!lib.sublibraries_reported) {
    lib.st.sublibraries[i] = sub;
    return;
  }
  lib.sublibrary_refused.resize(lib.st.sublibraries.size(), false);
  lib.sublibrary_refused[i] = true;
  std::lock_guard<std::mutex> lock(lib.missing_mutex);
  lib.late_problems.push_back(unusable_sublibrary_problem(sub, lib.desc->compiled_major));
}

// The sub-library that serves a table column, and whether a call into it may go on. The first call
// into one that was not loaded at load time loads it (a report checks it from its files only, and
// leaves that load to the call).
struct checked_sublibrary {
  const sublibrary* sub;
  bool usable;
};
inline checked_sublibrary sublibrary_checked_for(library_state& lib, const char* column) {
  std::lock_guard<std::recursive_mutex> lock(lib.completion_mutex);
  const sublibrary* found = sublibrary_for(lib.st.sublibraries, column);
  if (!found) return {nullptr, true};
  std::size_t i = std::size_t(found - lib.st.sublibraries.data());
  // A sub-library found unusable since (another version than the main library) stays so.
  if (i < lib.sublibrary_pending.size() && lib.sublibrary_pending[i] && found->usable) {
    load_pending_sublibrary(lib, i, false);
  }
  const bool refused = i < lib.sublibrary_refused.size() && lib.sublibrary_refused[i];
  return {found, found->usable && !refused};
}

// diagnostics::load_sublibraries: every sub-library no call has needed yet is loaded as its first
// call would load it (under probe_in_child in a child only), so that what a report calls usable is
// what those calls will find.
inline void load_pending(library_state& lib) {
  std::lock_guard<std::recursive_mutex> lock(lib.completion_mutex);
  if (!lib.loaded.load(std::memory_order_acquire)) return;
  for (std::size_t i = 0; i < lib.st.sublibraries.size() && i < lib.sublibrary_pending.size(); ++i) {
    if (lib.sublibrary_pending[i] && lib.st.sublibraries[i].usable) load_pending_sublibrary(lib, i, true);
  }
}

// A cuDNN function whose sub-library is unusable gets the "unavailable" fallback: cuDNN itself
// would abort the process when it fails to load that sub-library.
inline bool blocks_call(library_state& lib, const char* name, const char* column) {
  checked_sublibrary checked = sublibrary_checked_for(lib, column);
  if (checked.usable) return false;
  std::lock_guard<std::mutex> lock(lib.missing_mutex);
  std::string entry = std::string(name) + "|" + checked.sub->file_name;
  for (const std::string& b : lib.blocked_functions) {
    if (b == entry) return true;
  }
  lib.blocked_functions.push_back(entry);
  return true;
}

// What cuDNN 9 loads by name, not as an import, when some engines run: a missing one shows only
// then ("Could not locate cublasLt64_12.dll", "cannot load libnvrtc", "no valid execution plans").
// Reported as a warning; the rest of cuDNN works without it.
struct by_name_load {
  const library_descriptor* library;  // its file of the CUDA major cuDNN was built for
  const char* engines;                // what needs it
  const char* pip_package;            // nvidia-<it>-cu<major>
};
constexpr by_name_load by_name_loads[] = {{&cublaslt_descriptor, words::cublaslt_engines_run, "cublas"},
                                          {&nvrtc_descriptor, words::nvrtc_engines_run, "cuda-nvrtc"}};

inline void note_missing_by_name_loads(library_state& lib, sublibrary_finder& finder) {
  int cuda_major = lib.st.built_for_cuda ? lib.st.built_for_cuda / 1000 : compiled_cuda_major();
  std::string major = std::to_string(cuda_major);
  for (const by_name_load& load : by_name_loads) {
    std::string name = file_name_for_major(*load.library, cuda_major);
    std::vector<searched_place> searched;
    if (name.empty() || !finder.by_name(name, searched).empty()) continue;
    const std::string blocker = blocking_file(searched);
    if (!blocker.empty()) {
      lib.st.problems.push_back(problems_of::by_name_load_blocked(name, load.engines, blocker));
      continue;
    }
    lib.st.problems.push_back(
        problems_of::by_name_load_missing(name, load.engines, searched, *load.library, major, load.pip_package));
  }
}

// A copy cuDNN's own search meets before the one in use: a broken file (left behind by a partial
// install or copy), or another release it would take but for cushim's preload.
inline void note_shadowing(library_state& lib, const sublibrary& sub, const shadowing_copy& copy) {
  lib.st.problems.push_back(
      problems_of::sublibrary_shadowed(sub, copy, sub.version ? cudnn_version_text(sub.version) : std::string()));
}

// The problem of a sub-library that is unusable (and not the root, whose failure refused cuDNN).
inline problem unusable_sublibrary_problem(const sublibrary& sub, int major) {
  return problems_of::unusable_sublibrary(sub, serves_functions(sub.name, major), !blocker_of(sub).empty(), major,
                                          sublibrary_file_name("*", major));
}

// Before status_of() hands out the status, once: every sub-library not loaded yet is checked from
// its files (nothing is loaded for a report; a usable one is still loaded by its first call, whose
// refusal still gates its functions and joins the next report), and each unusable one is listed.
inline void complete_status(library_state& lib) {
  std::lock_guard<std::recursive_mutex> lock(lib.completion_mutex);
  if (lib.sublibraries_reported || !lib.loaded.load(std::memory_order_acquire)) return;
  lib.sublibraries_reported = true;
  if (lib.st.code != error_code::ok) return;
  const int major = lib.desc->compiled_major;
  std::vector<sublibrary>& subs = lib.st.sublibraries;
  sublibrary_finder finder(lib.st.path);
  for (std::size_t i = 0; i < subs.size() && i < lib.sublibrary_pending.size(); ++i) {
    if (lib.sublibrary_pending[i] && subs[i].usable) check_sublibrary(subs[i], finder);
  }
  for (const sublibrary& sub : subs) {
    for (const shadowing_copy& copy : sub.shadowing) note_shadowing(lib, sub, copy);
    if (!sub.usable && !sub.required) lib.st.problems.push_back(unusable_sublibrary_problem(sub, major));
  }
  if (major >= 9) note_missing_by_name_loads(lib, finder);
}

// The CUDA major cuDNN was built for against the runtime in use.
inline void cross_check(report& r, report_library& self) {
  const status& cudnn = *self.st;
  const report_library* runtime = r.find(library::cudart);
  if (cudnn.code != error_code::ok || !cudnn.built_for_cuda || !runtime || runtime->st->code != error_code::ok) return;
  const status& cudart = *runtime->st;
  int built = cudnn.built_for_cuda / 1000, in_use = cudart.version / 1000;
  if (built == in_use) return;
  self.problems.push_back(problems_of::cudnn_runtime_mismatch(
      built, in_use, format_version(decode_cuda_version(cudart.version), false), cudart.path));
}

}  // namespace cudnn_hooks

}  // namespace
}  // namespace detail
}  // namespace cushim
