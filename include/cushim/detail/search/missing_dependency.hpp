// A dependency the system loader would not find, or one found without every function imported
// from it, with the whole chain of files that leads to it; words/dependencies.hpp says it.
#pragma once

#include <string>
#include <vector>

#include "path_list.hpp"
#include "searched_place.hpp"
#include "words/dependencies.hpp"

namespace cushim {
namespace detail {
namespace {

// How the library whose dependencies are walked gets loaded, which decides where the system
// looks for them (only Windows tells the two apart).
enum class load_kind {
  by_path,  // by absolute path, as cushim loads
  by_name,  // by bare name, as cuDNN loads its sub-libraries
};

struct missing_dependency {
  std::vector<std::string> chain;             // the file walked first, then each one on the way
  std::string name;                           // what chain.back() needs, e.g. libcublasLt.so.13
  std::vector<searched_place> searched;       // what was looked at, in the loader's order
  std::string found;                          // the file found for it, when functions are absent
  std::vector<std::string> absent_functions;  // imported from it but not exported by `found`

  const std::string& needed_by() const { return chain.back(); }
};

inline std::string joined(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? separator : "") + items[i];
  return text;
}

inline std::string describe(const missing_dependency& m) {
  if (!m.absent_functions.empty()) return words::functions_not_exported(m.chain, m.name, m.found, m.absent_functions);
  return words::dependency_not_found(m.chain, m.name, m.searched);
}

// The missing dependencies of `path` that `found`'s own walk reported, reached through it.
inline void append_through(std::vector<missing_dependency>& result, const std::string& path,
                           std::vector<missing_dependency> found) {
  for (missing_dependency& m : found) {
    bool listed = false;  // two paths to one broken library name it once
    for (const missing_dependency& r : result) listed = listed || (r.needed_by() == m.needed_by() && r.name == m.name);
    if (listed) continue;
    m.chain.insert(m.chain.begin(), path);
    result.push_back(std::move(m));
  }
}

}  // namespace
}  // namespace detail
}  // namespace cushim
