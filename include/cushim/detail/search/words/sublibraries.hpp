// What the search says of a sub-library a library loads by name (sublibraries.hpp: cuDNN's, and
// the NVRTC builtins its hook looks for the same way): where its own search would go wrong, and
// why a copy is unusable; one named constructor per finding, from the paths, names, versions and
// the system loader's answers the search found. sublibrary::problem and shadowing_copy::why hold
// them.
#pragma once

#include <string>
#include <vector>

#include "dependencies.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

// Why cuDNN's search for a sub-library cannot use a file it meets (names_unusable_file): the
// reader's answer, that answer and the end of the search, or the FIFO that blocks it.
inline std::string shadowing_why(const searched_place& place) {
  switch (place.what) {
    case searched_place::finding::ends_search: return place.why + "; the system loader stops at it";
    case searched_place::finding::blocks_search:
      return std::string(fifo_blocks_text) + ": cuDNN's load of it by name would never return";
    default: return place.why;
  }
}

inline std::string sublibrary_load_meets_fifo(const std::string& fifo) {
  return "cuDNN's own load of it by name would open " + fifo + ", " + fifo_blocks_text;
}

// The release of a copy cuDNN's search would take instead of the one beside the main library
// (`version`: "9.1.0"; empty when its file does not say).
inline std::string other_release(const std::string& version) {
  return !version.empty() ? "cuDNN " + version : "another build (its file does not say which release)";
}

// No copy cuDNN would use: the one beside the main library is unusable (`why_not`), or absent;
// `searched`: the places cuDNN's own search looks.
inline std::string sibling_unusable(const std::string& sibling, const std::string& why_not,
                                    const std::vector<searched_place>& searched) {
  return sibling + " is unusable (" + why_not +
         ") and cuDNN's own search would not find another copy (looked in: " + places_text(searched) + ")";
}
inline std::string sublibrary_not_found(const std::string& file_name, const std::string& main_path,
                                        const std::vector<searched_place>& searched) {
  return file_name + " is not beside " + main_path +
         " and cuDNN's own search would not find it (looked in: " + places_text(searched) + ")";
}

// The file is no longer the one found (`why`: pinned_load's changed()).
inline std::string changed_since_found(const std::string& path, const std::string& why) {
  return path + " changed since cushim found it: " + why;
}

// The system loader's refusal (`error`: its message) of `path`, or of `dependency`, which it needs.
inline std::string load_refused(const std::string& path, const std::string& error) {
  return "the system loader refused " + path + ": " + error;
}
inline std::string dependency_refused(const std::string& dependency, const std::string& path,
                                      const std::string& error) {
  return "the system loader refused " + dependency + ", which " + path + " needs: " + error;
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
