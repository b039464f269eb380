// What a finished search adds to its status from its attempts alone: the error code when no
// candidate was usable, and the warnings its attempts call for (skipped list entries, copies whose
// probe child crashed).
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../types/status_types.hpp"
#include "attempt_log.hpp"
#include "descriptor.hpp"
#include "words/loading.hpp"
#include "search_list.hpp"

namespace cushim {
namespace detail {
namespace {

// A refused version says most, then a refused sub-library, a failed load, a file that is not the
// library; not_found when nothing was there at all.
inline error_code failure_code(const std::vector<attempt>& attempts, bool mismatch_seen, bool part_failure) {
  if (mismatch_seen) return error_code::version_mismatch;
  if (part_failure) return error_code::sublibrary_unusable;
  error_code code = error_code::not_found;
  for (const attempt& a : attempts) {
    if (a.result == outcome::load_failed || a.result == outcome::crashed) return error_code::load_failed;
    if (a.result == outcome::not_the_library || a.result == outcome::not_a_file || a.result == outcome::unreadable)
      code = error_code::not_the_library;
  }
  return code;
}

constexpr std::size_t warned_per_kind = 8;  // skipped entries of one list and kind warned about one by one

// A warning per skipped entry of a search list, the first few of each kind one by one; `counts`
// are the attempt log's (attempt_log::close()).
inline void warn_skipped_entries(status& st, const std::vector<attempt_log::list_count>& counts) {
  std::map<std::pair<std::string, outcome>, std::size_t> warned;
  for (const attempt& a : st.attempts) {
    if (a.result != outcome::skipped_relative && a.result != outcome::skipped_empty) continue;
    std::string list(list_of_rule(a.rule).empty() ? a.rule : list_of_rule(a.rule));
    if (a.path.empty() && a.rule == list + "[...]") continue;  // a summary, warned about below
    if (++warned[{list, a.result}] > warned_per_kind) continue;
    st.problems.push_back(problems_of::skipped_entry(a, list));
  }
  for (const attempt_log::list_count& n : counts) {
    if ((n.result != outcome::skipped_empty && n.result != outcome::skipped_relative) || n.count <= warned_per_kind)
      continue;
    st.problems.push_back(
        problems_of::more_skipped_entries(n.list, n.count - warned_per_kind, n.result == outcome::skipped_empty));
  }
}

// A warning per copy whose probe child crashed or hung, except those whose load waited on a FIFO:
// that FIFO is named instead (search_record::blocked_by_fifo).
inline void warn_crashed_copies(const library_descriptor& d, status& st,
                                const std::vector<std::string>& blocked_by_fifo) {
  for (const attempt& a : st.attempts) {
    if (a.result != outcome::crashed) continue;
    if (std::find(blocked_by_fifo.begin(), blocked_by_fifo.end(), a.path) != blocked_by_fifo.end()) continue;
    st.problems.push_back(problems_of::crashed_copy(d, a));
  }
}

}  // namespace
}  // namespace detail
}  // namespace cushim
