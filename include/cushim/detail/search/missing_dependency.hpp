// A dependency the system loader would not find, or one found without every function imported
// from it, with the whole chain of files that leads to it; words/dependencies.hpp says it.
#pragma once

#include <string>
#include <vector>

#include "path_list.hpp"
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

// How a search list ("searched") marks a file the system loader met and did not take: it passes
// over a library of another architecture and goes on, and ends the search for that name at any
// other file it cannot load (glibc: "invalid ELF header"; Windows: error 193).
// A FIFO it meets it opens, and then waits for a writer, forever: the search never ends.
constexpr const char* passed_over_marker = " (skipped: ";
constexpr const char* ends_search_marker = " (ends the search: ";
constexpr const char* blocks_search_marker = " (blocks the search: ";

inline std::string searched_entry(const std::string& path, bool ends_search, const std::string& why) {
  return path + (ends_search ? ends_search_marker : passed_over_marker) + why + ")";
}

inline std::string blocking_entry(const std::string& path) {
  return path + blocks_search_marker + words::fifo_blocks_text + ")";
}

inline bool names_unusable_file(const std::string& entry) {
  return entry.find(passed_over_marker) != std::string::npos || entry.find(ends_search_marker) != std::string::npos ||
         entry.find(blocks_search_marker) != std::string::npos;
}

// The file of a search list's entry that blocks the search (blocking_entry), or empty.
inline std::string blocking_file(const std::vector<std::string>& searched) {
  for (const std::string& entry : searched) {
    std::size_t at = entry.find(blocks_search_marker);
    if (at == std::string::npos) continue;
    std::size_t from = entry.compare(0, 13, "ld.so.cache: ") == 0 ? 13 : 0;
    return entry.substr(from, at - from);
  }
  return {};
}

struct missing_dependency {
  std::vector<std::string> chain;             // the file walked first, then each one on the way
  std::string name;                           // what chain.back() needs, e.g. libcublasLt.so.13
  std::vector<std::string> searched;          // what was looked at, in the loader's order
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
  return words::dependency_not_found(m.chain, m.name, joined(m.searched));
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
