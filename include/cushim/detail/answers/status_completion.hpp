// The one way a library's status is finished for a reader, status_of() and the report alike: the
// library loaded (when this build shims it), then what only a reader needs added once: the other
// copies the search passed over and the library's own completion (its complete_status hook).
#pragma once

#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "../libraries/all.hpp"
#include "../load/load_once.hpp"
#include "../search/path_list.hpp"
#include "../search/search_list.hpp"
#include "../search/state.hpp"
#include "words/answers.hpp"
#include CUSHIM_OS_BINARY_CHECK

namespace cushim {
namespace detail {
namespace {

// Before a report: the copies the search would reach after the one in use, and the library's other
// majors in the folders it searched, listed (never loaded), since a shadowed or stale copy is what
// users trip over next. Once, when a report first asks; nothing at load.
inline void list_other_copies(library_state& lib) {
  std::lock_guard<std::recursive_mutex> lock(lib.completion_mutex);
  if (lib.other_copies_listed || !lib.loaded.load(std::memory_order_acquire)) return;
  lib.other_copies_listed = true;
  const library_descriptor& d = *lib.desc;
  seen_files seen;
  seen.first_time(platform::identity_of(lib.st.path), lib.st.path);
  std::unordered_set<std::string> folders;
  const std::vector<std::string> other_majors = other_major_files(d);
  auto note = [&](const candidate& c, const std::string& path, outcome kind, const std::string& detail) {
    platform::file_check fc = platform::check_file(path);
    if (fc.state != platform::file_state::regular || !seen.first_time(fc.identity, path)) return;
    lib.st.other_copies.push_back({rule_of(c), path, kind, detail});
  };
  for (std::size_t i = lib.first_unused; i < lib.searched.size(); ++i) {
    const candidate& c = lib.searched[i];
    if (c.kind == entry_kind::absolute) note(c, c.path, outcome::shadowed, words::other_copy_shadowed);
  }
  for (const candidate& c : lib.searched) {
    if (c.kind != entry_kind::absolute || !folders.insert(parent_dir(c.path)).second) continue;
    for (const std::string& other : other_majors) {
      note(c, join_path(parent_dir(c.path), other), outcome::other_major,
           words::other_copy_of_another_major(compiled_file_name(d)));
    }
  }
  std::vector<candidate>().swap(lib.searched);
}

// Loads a shimmed library on first use; a library this build does not shim keeps its "disabled"
// status and is never loaded.
inline bool ensure_usable(library lib) {
  return known_library(lib) && descriptor_of(lib).shimmed && ensure_loaded(lib);
}

// A known library's status, loaded and completed.
inline const status& completed_status(library lib) {
  ensure_usable(lib);
  fork_pass pass;
  library_state& state = state_of(lib);
  list_other_copies(state);
  if (state.desc->hooks.complete_status) state.desc->hooks.complete_status(state);
  return state.st;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
