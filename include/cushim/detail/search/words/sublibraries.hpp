// What the search says of a sub-library a library loads by name (sublibraries.hpp: cuDNN's, and
// the NVRTC builtins its hook looks for the same way): where its own search would go wrong, and
// why a copy is unusable; one named constructor per finding, from the paths, names, versions and
// the system loader's answers the search found. sublibrary::problem and shadowing_copy::why hold
// them.
#pragma once

#include <string>

#include "dependencies.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

// A file the system loader's search meets and cannot load, ending that search (`why`: what the
// file is).
inline std::string ends_the_search(const std::string& why) { return why + "; the system loader stops at it"; }

// A FIFO in cuDNN's search for a sub-library (`why`: what the search list says of it).
inline std::string blocks_the_search(const std::string& why) {
  return why + ": cuDNN's load of it by name would never return";
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
// `searched`: the places cuDNN's own search looks, joined.
inline std::string sibling_unusable(const std::string& sibling, const std::string& why_not,
                                    const std::string& searched) {
  return sibling + " is unusable (" + why_not +
         ") and cuDNN's own search would not find another copy (looked in: " + searched + ")";
}
inline std::string sublibrary_not_found(const std::string& file_name, const std::string& main_path,
                                        const std::string& searched) {
  return file_name + " is not beside " + main_path +
         " and cuDNN's own search would not find it (looked in: " + searched + ")";
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
