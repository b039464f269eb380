// cuDNN's own sub-libraries, checked before any cuDNN function runs. cuDNN loads them by bare
// name and aborts the process (8.x; 9.x even for cudnnGetVersion) when one is missing, so cushim
// works out what cuDNN's by-name load would find, preloads the right copy by absolute path where
// that load would miss it, and refuses cuDNN (or gates the functions of one sub-library) instead.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../platform/os.hpp"
#include "pinned_load.hpp"
#include "../files/sorting.hpp"
#include "sublibrary_specs.hpp"
#include "words/sublibraries.hpp"
#include CUSHIM_OS_SUBLIBRARY_FINDER

namespace cushim {
namespace detail {
namespace {

using platform::sublibrary_finder;

// A file cuDNN's by-name search met and did not take (names_unusable_file), as a shadowing copy.
inline shadowing_copy shadowing_copy_of(const searched_place& place) {
  bool blocks = place.what == searched_place::finding::blocks_search;
  return {place.path, words::shadowing_why(place), false, blocks};
}

// The FIFO a sub-library's by-name search blocks on (locate_sublibrary), or empty.
inline std::string blocker_of(const sublibrary& s) {
  for (const shadowing_copy& copy : s.shadowing) {
    if (copy.blocks) return copy.path;
  }
  return {};
}

// Two copies of a sub-library by the versions they say, or where one does not say, by their size:
// the copies of one build have one size.
inline bool same_release(const std::string& a, long a_version, const std::string& b, long b_version) {
  if (a_version && b_version) return a_version == b_version;
  platform::file_source first(a), second(b);
  return first.size() == second.size();
}

// Where one sub-library is: the file cuDNN would use and its version, and whether cushim must
// load it beside the main library. `usable` is left false and `problem` says why when there is no
// such file; the dependencies are not looked at here (check_sublibrary, load_sublibrary).
inline sublibrary locate_sublibrary(const sublibrary_spec& spec, int major, const std::string& main_path,
                                    sublibrary_finder& finder) {
  sublibrary s;
  s.name = spec.name;
  s.file_name = sublibrary_file_name(spec.name, major);
  s.required = spec.role == sublibrary_role::root;
  s.known = spec.known;
  std::vector<searched_place> searched, skipped;
  std::string by_name = finder.by_name(s.file_name, searched, &skipped);
  for (const searched_place& entry : skipped) s.shadowing.push_back(shadowing_copy_of(entry));
  // A FIFO that cuDNN's own load meets before any copy: no preload helps (the name it tries there
  // matches no loaded library), so whatever needs this sub-library would wait forever.
  const std::string blocker = blocking_file(skipped);
  if (!blocker.empty()) {
    s.path = blocker;
    s.problem = words::sublibrary_load_meets_fifo(blocker);
    return s;
  }
  std::string sibling = join_path(parent_dir(main_path), s.file_name);
  std::string why_not;
  bool sibling_ok = finder.loadable(sibling, why_not);
  long by_name_version = by_name.empty() ? 0 : finder.version_of(by_name, spec);
  bool same_file = sibling_ok && !by_name.empty() && platform::identity_of(sibling) == platform::identity_of(by_name);
  long sibling_version = !sibling_ok ? 0 : same_file ? by_name_version : finder.version_of(sibling, spec);
  // cuDNN's own load wins unless it would miss the file or take one of another release than the
  // copy beside the main library (of the main library's install). Where either file does not say
  // its release, copies of one build have one size.
  bool use_sibling = sibling_ok && (by_name.empty() ||
                                    !(same_file || same_release(by_name, by_name_version, sibling, sibling_version)));
  s.path = use_sibling ? sibling : by_name;
  s.version = int(use_sibling ? sibling_version : by_name_version);
  s.preloaded = use_sibling && !same_file;
  if (s.preloaded && !by_name.empty()) {  // the copy of another release that cuDNN's search would take
    s.shadowing.push_back(
        {by_name, words::other_release(by_name_version ? cudnn_version_text(by_name_version) : std::string()), true});
  }
  s.usable = !s.path.empty();
  if (s.path.empty()) {
    s.problem = platform::check_file(sibling).state == platform::file_state::regular
                    ? words::sibling_unusable(sibling, why_not, searched)
                    : words::sublibrary_not_found(s.file_name, main_path, searched);
  }
  return s;
}

// The sub-libraries the known list does not name that sit beside the main library
// (libcudnn_*.so.<major>, cudnn_*64_<major>.dll): cuDNN of a newer release may load them by name.
inline std::vector<sublibrary_spec> sublibraries_beside(const std::string& main_path, int major,
                                                        const std::vector<sublibrary_spec>& known) {
  std::vector<sublibrary_spec> found;
  std::vector<std::string> files = platform::list_folder(parent_dir(main_path), sublibrary_file_prefix());
  sort_names(files);
  for (const std::string& file : files) {
    std::string name = sublibrary_name_of(file, major);
    bool listed = name.empty();
    for (const sublibrary_spec& k : known) listed = listed || k.name == name;
    if (!listed) found.push_back({name, sublibrary_role::engines, nullptr, 0, false});
  }
  return found;
}

// Without loading anything: would the file load where cuDNN loads it? Sets usable and problem.
inline void check_sublibrary(sublibrary& s, sublibrary_finder& finder) {
  std::vector<missing_dependency> missing = finder.missing(s.path, load_kind::by_name);
  s.usable = missing.empty();
  if (!missing.empty()) s.problem = describe(missing.front());
}

// Loads the file by absolute path, so cuDNN's own load by name finds it in the process. When the
// loader refuses, the dependency walk says why; on Windows, dependencies only PATH holds are then
// loaded first and the file tried again. Sets usable and problem; keeps the handles in `loaded`.
inline bool load_sublibrary(sublibrary& s, sublibrary_finder& finder, std::vector<platform::library_handle>& loaded) {
  platform::load_result r;
  if (!sublibrary_finder::walk_before_load) {
    pinned_load load(s.path);  // still a regular file: never a FIFO swapped in since it was found
    if (!load.changed().empty()) {
      s.usable = false;
      s.problem = words::changed_since_found(s.path, load.changed());
      return false;
    }
    r = {load.handle(), load.error(), false};
  }
  if (!r.handle) {
    std::vector<missing_dependency> missing = finder.missing(s.path, load_kind::by_path);
    if (!missing.empty()) {
      s.usable = false;
      s.problem = describe(missing.front());
      return false;
    }
    std::vector<std::string> first = finder.preloads_for(s.path);
    for (const std::string& file : first) {
      platform::load_result d = platform::load_library(file);
      if (!d.handle) {
        s.usable = false;
        s.problem = words::dependency_refused(file, s.path, d.error);
        return false;
      }
      loaded.push_back(d.handle);
    }
    if (sublibrary_finder::walk_before_load || !first.empty()) r = platform::load_library(s.path);
    if (!r.handle) {
      s.usable = false;
      s.problem = words::load_refused(s.path, r.error);
      return false;
    }
  }
  loaded.push_back(r.handle);
  s.usable = true;
  return true;
}

// The sub-library that serves a table's sub-library column (cuDNN 8's backend API lives in the
// root library).
inline const sublibrary* sublibrary_for(const std::vector<sublibrary>& subs, const char* column) {
  std::string name = std::string(column) == "backend" ? "ops_infer" : column;
  for (const sublibrary& s : subs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
