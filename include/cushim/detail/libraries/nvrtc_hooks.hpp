// What only NVRTC does (its record, tools/libraries.json, names each hook): its builtins library,
// which NVRTC loads by name when it compiles.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "../search/descriptor.hpp"
#include "../search/words/loading.hpp"
#include "../search/state.hpp"
#include "../search/sublibraries.hpp"
#include "words/nvrtc.hpp"

namespace cushim {
namespace detail {
namespace {

namespace nvrtc_hooks {

// The builtins of one NVRTC release: libnvrtc-builtins.so.13.0, nvrtc-builtins64_130.dll.
inline std::string builtins_file_name(long nvrtc_version) {
  version_parts v = decode_cuda_version(nvrtc_version);
  if (platform::windows_names) return "nvrtc-builtins64_" + std::to_string(v.major) + std::to_string(v.minor) + ".dll";
  return "libnvrtc-builtins.so." + std::to_string(v.major) + "." + std::to_string(v.minor);
}

// NVRTC loads its builtins by name when it compiles, not from its own folder (libnvrtc has no
// RUNPATH): a copy loaded from a pip wheel or an override would compile nothing, or take another
// install's builtins of the same name (ld.so.cache's toolkit), whose IR can be of another release.
// The copy beside it, its own release's, is loaded now by absolute path, so NVRTC finds it in the
// process (what torch's and CuPy's processes map); else the one its search finds. Whether that one
// loads is checked for a report, not here.
inline void locate_builtins(library_state& lib, platform::library_handle) {
  sublibrary b;
  b.name = "builtins";
  b.file_name = builtins_file_name(lib.st.version);
  b.version = lib.st.version;
  sublibrary_finder finder(lib.st.path);
  std::vector<searched_place> searched;
  std::string by_name = finder.by_name(b.file_name, searched);
  b.path = by_name;
  b.usable = !b.path.empty();
  std::string beside = join_path(parent_dir(lib.st.path), b.file_name), why_not;
  bool same = !by_name.empty() && platform::identity_of(by_name) == platform::identity_of(beside);
  if (!same && finder.loadable(beside, why_not)) {
    sublibrary own = b;
    own.path = beside;
    if (load_sublibrary(own, finder, lib.sublibrary_handles) || by_name.empty()) b = own;  // else NVRTC's own find
    b.preloaded = b.path == beside && b.usable;
  } else if (b.path.empty()) {
    b.problem = words::builtins_not_found(lib.st.path, searched);
  }
  lib.st.sublibraries.push_back(b);
}

// Before a report: a copy NVRTC's search finds is checked from its files, and an unusable one is a
// warning, once.
inline void complete_status(library_state& lib) {
  std::lock_guard<std::recursive_mutex> lock(lib.completion_mutex);
  if (lib.sublibraries_reported || !lib.loaded.load(std::memory_order_acquire)) return;
  lib.sublibraries_reported = true;
  for (sublibrary& b : lib.st.sublibraries) {
    if (b.usable && !b.preloaded) {
      sublibrary_finder finder(lib.st.path);
      check_sublibrary(b, finder);
    }
    if (b.usable) continue;
    std::string major = std::to_string(decode_cuda_version(lib.st.version).major);
    lib.st.problems.push_back(problems_of::builtins_unusable(
        b, format_version(decode_cuda_version(lib.st.version), false), major, lib.st.path));
  }
}

}  // namespace nvrtc_hooks

}  // namespace
}  // namespace detail
}  // namespace cushim
