// The search for one library, in its order: a copy already in the process, the explicit override,
// then the search list (search_order.hpp). Each candidate is screened (candidate_screen.hpp),
// loaded in a probe child first when asked (child_probe.hpp), loaded as the very file screened
// (pinned_load.hpp), then accepted by its identity, the library's hooks and its version
// (version_check.hpp), or refused; search_record.hpp records each attempt. Reads a descriptor;
// never names a library or a platform.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "../search/candidate_screen.hpp"
#include "../probe/child_probe.hpp"
#include "copy_acceptance.hpp"
#include "../search/dependency_walk.hpp"
#include "../platform/os.hpp"
#include "../search/pinned_load.hpp"
#include "../search/words/loading.hpp"
#include "../search/search_order.hpp"
#include "../search/search_record.hpp"
#include "../search/state.hpp"

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

 private:
  void search() {
    lib_.st.compiled_version = d_.compiled_version;
    if (record_.logging()) record_.log(log_texts::searching(compiled_file_name(d_)));
    note_ignored_override();
    // A copy already in the process comes first even before an override: two copies of one
    // library in a process break both.
    search_inputs in{&opts_.search_dirs, opts_.use_environment, platform::executable_path(), module_path()};
    if (try_already_loaded()) {
      lib_.searched = search_candidates(d_, in);
      return record_.close();
    }
    if (lib_.st.code == error_code::already_loaded_mismatch || try_override()) return record_.close();
    if (lib_.st.code == error_code::override_failed) return record_.close();
    std::vector<candidate> candidates = search_candidates(d_, in);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!try_candidate(candidates[i])) continue;
      lib_.searched = std::move(candidates);
      lib_.first_unused = i + 1;
      return record_.close();
    }
    record_.close_without_copy();
  }

  static std::string module_path() {
    static const char anchor = 0;  // an address inside whichever module holds cushim
    return platform::module_path_of(&anchor);
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
    if (acceptance_.accept(h, c, outcome::reused)) return true;
    lib_.st.code = error_code::already_loaded_mismatch;
    lib_.st.problems.push_back(problems_of::already_loaded_unusable(
        d_, path, lib_.st.attempts.back().detail,
        problems_of::who_loaded(d_, platform::modules_needing(compiled_file_name(d_)),
                                platform::preloaded_by_environment(path), path),
        acceptance_.reported_version()));
    return false;
  }

  bool try_candidate(const candidate& c) {
    if (c.kind == entry_kind::default_dirs) return try_default_dirs(c);
    screen_verdict screened = screen_.screen(c);
    if (screened.result != outcome::loaded) {
      record_.attempt(c, screened.result, screened.detail);
      return false;
    }
    child_probe_settings probe = child_probe_settings_of(opts_);
    if (probe.enabled && !passes_in_child(c, probe)) return false;
    pinned_load load(c.path, &screened.file);  // the file checked is the file loaded, held until it is accepted
    if (!load.changed().empty()) {
      record_.attempt(c, outcome::load_failed, attempt_texts::changed_since_check(load.changed()));
      return false;
    }
    if (load.handle()) return acceptance_.accept(load.handle(), c, outcome::loaded);
    // The loader's message alone often names the wrong file; the dependency walk names the one
    // that is missing and the chain of files that needs it.
    std::string missing = missing_dependencies_of(c.path);
    record_.attempt(c, missing.empty() ? outcome::load_failed : outcome::missing_dependency,
                    missing.empty() ? load.error() : missing);
    return false;
  }

  // probe_in_child: the candidate is loaded and checked in a child process first (child_probe.hpp).
  bool passes_in_child(const candidate& c, const child_probe_settings& probe) {
    probe_verdict v = probe_candidate({d_.key, c.path}, probe);
    if (v.failure.empty()) return true;  // passed, or no child could be made: loaded here, as without the option
    if (!v.fifo.empty()) record_.blocked_by_fifo(c.path, problems_of::load_waits_on_fifo(c.path, v.fifo, v.cause));
    record_.attempt(c, outcome::crashed, v.failure);
    return false;
  }

  // The bare name through the system's default DLL folders; what it finds is checked once loaded.
  bool try_default_dirs(const candidate& c) {
    platform::load_result r = platform::load_from_default_dirs(c.path);
    if (!r.handle) {
      record_.attempt(c, r.not_found ? outcome::absent : outcome::load_failed, r.error);
      return false;
    }
    candidate found{c.rule, platform::loaded_path_of(r.handle), entry_kind::absolute, c.list, c.entry};
    if (!screen_.first_copy(found.path)) {
      platform::unload_library(r.handle);
      record_.attempt(found, outcome::duplicate, attempt_texts::duplicate);
      return false;
    }
    return acceptance_.accept(r.handle, found, outcome::loaded);
  }

  library_state& lib_;
  const library_descriptor& d_;
  const options& opts_;
  search_record record_{lib_, opts_};
  candidate_screen screen_{d_, opts_};
  copy_acceptance acceptance_{lib_, opts_, record_};
};

}  // namespace
}  // namespace detail
}  // namespace cushim
