// What one search of a library records: each attempt, in status.attempts (throttled by the
// attempt log) and on the log callback, and when the search closes, its error code and the
// warnings its attempts call for (search_outcome.hpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../types/status_types.hpp"
#include "attempt_log.hpp"
#include "words/loading.hpp"
#include "search_list.hpp"
#include "search_outcome.hpp"
#include "state.hpp"

namespace cushim {
namespace detail {
namespace {

class search_record {
 public:
  search_record(library_state& lib, const options& opts) : lib_(lib), opts_(opts) {}

  // A log callback is set: only then are lines built (a probe child's loader has none).
  bool logging() const { return opts_.log != nullptr; }

  // One line on the log callback: "cushim: cuDNN: <text>".
  void log(const std::string& text) { log_line(opts_, log_texts::line(*lib_.desc, text)); }

  // Every candidate is counted; the first entries of a long list with one outcome are recorded and
  // logged one by one (attempt_log.hpp).
  void attempt(const candidate& c, outcome result, std::string_view detail = {}) {
    if (!tried_.counts_one_by_one(list_of(c), result)) return;
    std::string rule = rule_of(c);
    if (logging()) log(log_texts::attempt(rule, c.path, result, detail));
    tried_.add(std::move(rule), c.path, result, detail);
  }

  // A copy that loaded and was refused: a refused version or sub-library decides the error code
  // if no copy is used.
  void refused(const candidate& c, outcome result, const std::string& detail, bool part_unusable) {
    mismatch_seen_ = mismatch_seen_ || result == outcome::wrong_version;
    part_failure_ = part_failure_ || part_unusable;
    attempt(c, result, detail);
  }

  // A candidate whose load in a probe child waited on a FIFO: `fifo_problem` names the FIFO, and
  // no warning of a crashed copy names the file.
  void blocked_by_fifo(const std::string& path, problem fifo_problem) {
    blocked_by_fifo_.push_back(path);
    lib_.st.problems.push_back(std::move(fifo_problem));
  }

  // Once every candidate was refused: the error code that says most of why.
  void close_without_copy() {
    lib_.st.code = failure_code(lib_.st.attempts, mismatch_seen_, part_failure_);
    close();
  }

  // Once the search is over, whatever its end: the summaries, the warnings, and what made it fail.
  void close() {
    status& st = lib_.st;
    warn_skipped_entries(st, tried_.close());
    warn_crashed_copies(*lib_.desc, st, blocked_by_fifo_);
    if (st.code != error_code::ok && st.code != error_code::override_failed &&
        st.code != error_code::already_loaded_mismatch) {
      st.problems.push_back(problems_of::unavailable(*lib_.desc, st.code, tried_.places()));
    }
    if (st.code != error_code::ok && logging()) log(log_texts::unavailable(st.code));
  }

 private:
  library_state& lib_;
  const options& opts_;
  attempt_log tried_{lib_.st.attempts};
  bool mismatch_seen_ = false;
  bool part_failure_ = false;
  std::vector<std::string> blocked_by_fifo_;  // candidates whose load in a child waited on a FIFO
};

}  // namespace
}  // namespace detail
}  // namespace cushim
