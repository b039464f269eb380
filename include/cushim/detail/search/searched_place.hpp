// One place a search by the system loader's rules looked at (dependencies.hpp of each platform,
// the sub-library finders): a fact, which words::place_text (words/dependencies.hpp) says.
#pragma once

#include <string>
#include <vector>

namespace cushim {
namespace detail {
namespace {

struct searched_place {
  enum class finding {
    absent,          // no usable file of the name there (`path`: the folder)
    no_cache_entry,  // Linux: ld.so.cache has no entry for the name
    passed_over,     // a library of another architecture: the loader goes on (`why`: the reader's answer)
    ends_search,     // any other file the loader cannot load: the search for the name ends there (`why`)
    blocks_search,   // a FIFO: the loader opens it and waits for a writer, forever
    on_path,         // Windows: a copy on PATH, which the imports of a DLL loaded by full path never reach
    named,           // a place another search looks (the doctor's: torch's own preload), as `path` names it
  };
  finding what = finding::absent;
  std::string path;         // the folder (absent), else the file met there
  std::string why;          // passed_over, ends_search: why the loader cannot use the file
  bool from_cache = false;  // Linux: met through ld.so.cache
};

// Whether the loader met a file there and did not take it.
inline bool names_unusable_file(const searched_place& p) {
  return p.what == searched_place::finding::passed_over || p.what == searched_place::finding::ends_search ||
         p.what == searched_place::finding::blocks_search;
}

// The FIFO a search met, which blocks it, or empty.
inline std::string blocking_file(const std::vector<searched_place>& searched) {
  for (const searched_place& p : searched) {
    if (p.what == searched_place::finding::blocks_search) return p.path;
  }
  return {};
}

}  // namespace
}  // namespace detail
}  // namespace cushim
