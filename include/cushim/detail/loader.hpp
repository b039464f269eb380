// The search for one library: the explicit override, a copy already in the process, then the
// search list; checks each candidate (file kind, format, loader, the library's hooks, version) and
// records what happened. Reads a descriptor; never names a library or a platform.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "attempt_log.hpp"
#include "candidate_check.hpp"
#include "child_probe.hpp"
#include "os.hpp"
#include "pinned_load.hpp"
#include "problems.hpp"
#include "search_order.hpp"
#include "search_outcome.hpp"
#include "state.hpp"
#include "versions.hpp"
#include CUSHIM_OS_BINARY_CHECK
#include CUSHIM_OS_DEPENDENCIES
#include CUSHIM_OS_FILE_VERSION

namespace cushim {
namespace detail {
namespace {

class loader {
 public:
  loader(library_state& lib, const options& opts) : lib_(lib), d_(*lib.desc), opts_(opts) {}

  // The library counts as loaded only once its status is complete: other threads read the status
  // without a lock as soon as they see it loaded.
  void run() {
    search();
    if (lib_.handle && lib_.st.code == error_code::ok) lib_.loaded.store(true, std::memory_order_release);
  }

  // In a probe child (child_work.hpp): what try_candidate does from the load on, each step named
  // on fd first.
  void check_in_child(const std::string& path, int fd) {
    child_fd_ = fd;
    const candidate c{"probe_in_child", path, entry_kind::absolute};
    stage(step_texts::loading);
    pinned_load load(c.path);  // never a FIFO swapped in since the parent looked
    if (load.handle()) accept_loaded(load.handle(), c, outcome::loaded);
    stage(done_step);
  }

 private:
  void search() {
    status& st = lib_.st;
    st.compiled_version = d_.compiled_version;
    if (logging()) log(log_texts::searching(compiled_file_name(d_)));
    note_ignored_override();
    // A copy already in the process comes first even before an override: two copies of one
    // library in a process break both.
    search_inputs in{&opts_.search_dirs, opts_.use_environment, platform::executable_path(), module_path()};
    if (try_already_loaded()) {
      lib_.searched = search_candidates(d_, in);
      return finish();
    }
    if (st.code == error_code::already_loaded_mismatch || try_override()) return finish();
    if (st.code == error_code::override_failed) return finish();
    std::vector<candidate> candidates = search_candidates(d_, in);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!try_candidate(candidates[i])) continue;
      lib_.searched = std::move(candidates);
      lib_.first_unused = i + 1;
      return finish();
    }
    st.code = failure_code(st.attempts, mismatch_seen_, part_failure_);
    finish();
  }

  static std::string module_path() {
    static const char anchor = 0;  // an address inside whichever module holds cushim
    return platform::module_path_of(&anchor);
  }

  // A log callback is set, and this is not a probe_in_child child: only then are lines built.
  bool logging() const { return opts_.log && child_fd_ < 0; }

  void log(const std::string& text) { log_line(opts_, log_texts::line(d_, text)); }

  // Every candidate is counted; the first entries of a long list with one outcome are recorded and
  // logged one by one (attempt_log.hpp).
  void record(const candidate& c, outcome result, std::string_view detail = {}) {
    if (!tried_.counts_one_by_one(list_of(c), result)) return;
    std::string rule = rule_of(c);
    if (logging()) log(log_texts::attempt(rule, c.path, result, detail));
    tried_.add(std::move(rule), c.path, result, detail);
  }

  // A library with no override (the driver: only the system's own copy) ignores options.files.
  void note_ignored_override() {
    if (d_.override_variable || opts_.files[d_.id].empty()) return;
    std::string rule = std::string("options.files[") + d_.key + "]";
    lib_.st.problems.push_back(problems_of::ignored_override(d_, rule, opts_.files[d_.id]));
  }

  bool try_override() {
    candidate c{};
    if (!override_candidate(d_, opts_, c)) return false;
    const std::string& rule = c.rule;
    if (try_candidate(c)) return true;
    lib_.st.code = error_code::override_failed;
    lib_.st.problems.push_back(problems_of::override_failed(d_, rule, lib_.st.attempts.back()));
    return false;
  }

  bool try_already_loaded() {
    std::string path;
    platform::library_handle h = platform::find_loaded(compiled_file_name(d_), path);
    if (!h) return false;
    candidate c{attempt_texts::already_loaded_rule, path, entry_kind::absolute};
    candidate wanted{};
    if (override_candidate(d_, opts_, wanted) && platform::identity_of(wanted.path) != platform::identity_of(path)) {
      lib_.st.problems.push_back(problems_of::other_copy_already_loaded(d_, wanted.rule, wanted.path, path));
    }
    if (accept_loaded(h, c, outcome::reused)) return true;
    lib_.st.code = error_code::already_loaded_mismatch;
    lib_.st.problems.push_back(problems_of::already_loaded_unusable(
        d_, path, lib_.st.attempts.back().detail,
        problems_of::who_loaded(d_, platform::modules_needing(compiled_file_name(d_)),
                                platform::preloaded_by_environment(path), path),
        refused_version_));
    return false;
  }

  // A switch the options set, or its variable set to 1 (when the environment may be read).
  bool switched_on(bool option, const char* variable) const {
    if (option) return true;
    const char* env = opts_.use_environment ? platform::get_environment(variable) : nullptr;
    return env && std::string(env) == "1";
  }

  // Always for a library the system installs (the driver).
  bool trusted_only() const {
    return d_.system_only || switched_on(opts_.trusted_dirs_only, "CUSHIM_TRUSTED_DIRS_ONLY");
  }

  // probe_in_child: the candidate is loaded and checked in a child process first (child_probe.hpp).
  // A child that never finished its load may have waited on a FIFO where the system loader looks
  // for something that load needs: then the FIFO is named, not the file.
  bool passes_in_child(const candidate& c, const child_probe_settings& probe) {
    bool load_unfinished = false;
    std::string failure = failure_in_child({d_.key, c.path}, probe, nullptr, &load_unfinished);
    if (failure.empty()) return true;  // passed, or no child could be made: loaded here, as without the option
    std::string cause, fifo = load_unfinished ? fifo_blocking_load(c.path, cause) : std::string();
    if (!fifo.empty()) {
      blocked_by_fifo_.push_back(c.path);
      failure += "; " + cause;
      lib_.st.problems.push_back(problems_of::load_waits_on_fifo(c.path, fifo, cause));
    }
    record(c, outcome::crashed, failure);
    return false;
  }

  void stage(const std::string& where) {
    if (child_fd_ >= 0) child_step(child_fd_, where);
  }

  bool try_candidate(const candidate& c) {
    if (c.kind == entry_kind::empty) {
      record(c, outcome::skipped_empty, attempt_texts::empty_entry);
      return false;
    }
    if (c.kind == entry_kind::relative) {
      record(c, outcome::skipped_relative, attempt_texts::relative_entry);
      return false;
    }
    if (c.kind == entry_kind::default_dirs) return try_default_dirs(c);
    if (!seen_.first_text(c.path)) {  // the same text again: no system call
      record(c, outcome::duplicate, attempt_texts::duplicate);
      return false;
    }
    platform::file_check fc = c.list ? platform::check_file_in_listed_folder(c.path) : platform::check_file(c.path);
    if (fc.identity.known() && !seen_.first_identity(fc.identity)) {  // another path to a file seen before
      record(c, outcome::duplicate, attempt_texts::duplicate);
      return false;
    }
    switch (fc.state) {
      case platform::file_state::absent: record(c, outcome::absent); return false;
      case platform::file_state::folder_absent: record(c, outcome::folder_absent); return false;
      case platform::file_state::not_a_file: record(c, outcome::not_a_file, fc.detail); return false;
      case platform::file_state::unreadable: record(c, outcome::unreadable, fc.detail); return false;
      case platform::file_state::regular: break;
    }
    std::string untrusted;
    if (trusted_only() && !platform::trusted_location(c.path, untrusted)) {
      record(c, outcome::untrusted_location, attempt_texts::untrusted(untrusted, d_.system_only));
      return false;
    }
    std::string detail;
    outcome format = platform::inspect_file(c.path, detail);
    if (format != outcome::loaded) {
      record(c, format, detail);
      return false;
    }
    child_probe_settings probe = child_probe_settings_of(opts_);
    if (probe.enabled && child_fd_ < 0 && !passes_in_child(c, probe)) return false;
    pinned_load load(c.path, &fc);  // the file checked is the file loaded, held until it is accepted
    if (!load.changed().empty()) {
      record(c, outcome::load_failed, attempt_texts::changed_since_check(load.changed()));
      return false;
    }
    if (!load.handle()) {
      explain_load_failure(c, load.error());
      return false;
    }
    return accept_loaded(load.handle(), c, outcome::loaded);
  }

  // The bare name through the system's default DLL folders; what it finds is checked once loaded.
  bool try_default_dirs(const candidate& c) {
    platform::load_result r = platform::load_from_default_dirs(c.path);
    if (!r.handle) {
      record(c, r.not_found ? outcome::absent : outcome::load_failed, r.error);
      return false;
    }
    candidate found{c.rule, platform::loaded_path_of(r.handle), entry_kind::absolute, c.list, c.entry};
    if (!seen_.first_time(platform::identity_of(found.path), found.path)) {
      platform::unload_library(r.handle);
      record(found, outcome::duplicate, attempt_texts::duplicate);
      return false;
    }
    return accept_loaded(r.handle, found, outcome::loaded);
  }

  // The loader's message alone often names the wrong file; the dependency walk names the one
  // that is missing and the chain of files that needs it.
  void explain_load_failure(const candidate& c, const std::string& loader_message) {
    std::vector<missing_dependency> missing = platform::dependency_resolver().missing(c.path);
    if (missing.empty()) {
      record(c, outcome::load_failed, loader_message);
      return;
    }
    std::string detail;
    for (const missing_dependency& m : missing) detail += (detail.empty() ? "" : "; ") + describe(m);
    record(c, outcome::missing_dependency, detail);
  }

  // A loaded candidate: its identity, the library's own checks before its version (cuDNN's
  // sub-libraries), the version, and the checks after it. Unloads and records when refused.
  bool accept_loaded(platform::library_handle h, const candidate& c, outcome success) {
    candidate_check check{lib_, c.path, h, 0, {}, {}, false};
    stage(step_texts::checking);
    outcome result = platform::check_identity(c.path, d_, check.detail);
    if (result == outcome::loaded && d_.hooks.before_version) result = d_.hooks.before_version(check);
    if (result == outcome::loaded) result = check_version(check);
    if (result == outcome::loaded && d_.hooks.after_version) result = d_.hooks.after_version(check);
    if (result != outcome::loaded) {
      mismatch_seen_ = mismatch_seen_ || result == outcome::wrong_version;
      part_failure_ = part_failure_ || check.part_unusable;
      release(check);
      platform::unload_library(h);
      record(c, result, check.detail);
      return false;
    }
    record(c, success, check.detail);
    adopt(h, c, check);
    return true;
  }

  void release(candidate_check& check) {
    for (platform::library_handle h : check.preloads) platform::unload_library(h);
    check.preloads.clear();
    lib_.sublibrary_pending.clear();
  }

  // Reads the version the file reports and applies the policy: loaded, not_the_library or
  // wrong_version, with the reason in the check's detail.
  outcome check_version(candidate_check& check) {
    std::string& detail = check.detail;
    platform::any_function f = platform::find_symbol(check.handle, d_.version_function);
    if (!f) {
      detail = attempt_texts::lacks_version_function(d_);
      return outcome::not_the_library;
    }
    std::string source = d_.version_function;
    stage(std::string("in ") + d_.version_function);
    long v = d_.query_version(f);
    if (v == 0 && d_.ask_file_when_zero) v = platform::version_from_file(check.path, d_, source);
    refused_version_ = v;  // kept for the explanation when it is refused
    version_parts got = d_.decode_version(v), want = d_.decode_version(d_.compiled_version);
    std::string found = attempt_texts::reported_version(d_, v);
    detail = detail.empty() ? found : found + "; " + detail;
    const bool newer_major =
        (d_.newer_major_works && got.major > want.major) || (d_.older_major_works && got.major < want.major);
    if (got.major != want.major && !newer_major) {
      detail += "; " + attempt_texts::compiled_for_major(want.major);
      return outcome::wrong_version;
    }
    if (!newer_major && got.minor < want.minor) {
      if (opts_.policy == version_policy::same_major_newer_minor && !d_.older_minor_works) {
        detail += "; " + problems_of::older_than_compiled(d_);
        return outcome::wrong_version;
      }
      lib_.st.problems.push_back(problems_of::older_minor(d_, v, check.path));
    }
    check.version = v;
    version_source_ = source;
    return outcome::loaded;
  }

  void adopt(platform::library_handle h, const candidate& c, candidate_check& check) {
    lib_.sublibrary_handles.insert(lib_.sublibrary_handles.end(), check.preloads.begin(), check.preloads.end());
    check.preloads.clear();
    lib_.handle = h;
    lib_.st.code = error_code::ok;
    lib_.st.version = int(check.version);
    lib_.st.version_source = version_source_;
    lib_.st.path = c.path;
    lib_.st.found_by = rule_of(c);
    if (d_.hooks.adopted) d_.hooks.adopted(lib_, h);
    if (logging()) log(log_texts::using_copy(c.path, version_text(d_, lib_.st.version), lib_.st.found_by));
  }

  void finish() {
    status& st = lib_.st;
    warn_skipped_entries(st, tried_.close());
    warn_crashed_copies(d_, st, blocked_by_fifo_);
    if (st.code != error_code::ok && st.code != error_code::override_failed &&
        st.code != error_code::already_loaded_mismatch) {
      st.problems.push_back(problems_of::unavailable(d_, st.code, tried_.places()));
    }
    if (st.code != error_code::ok && logging()) log(log_texts::unavailable(st.code));
  }

  library_state& lib_;
  const library_descriptor& d_;
  const options& opts_;
  attempt_log tried_{lib_.st.attempts};
  seen_files seen_;
  int child_fd_ = -1;         // in a probe_in_child child: its pipe to the parent
  long refused_version_ = 0;  // the version the last candidate reported
  bool mismatch_seen_ = false;
  bool part_failure_ = false;
  std::vector<std::string> blocked_by_fifo_;  // candidates whose load in a child waited on a FIFO
  std::string version_source_;
};

}  // namespace
}  // namespace detail
}  // namespace cushim
