// The attempts of one search, as status.attempts lists them, and its throttling of long lists: every
// candidate is counted; of the entries of one search list (CUSHIM_SEARCH_PATH[i], PATH[i]) with one
// outcome, the first listed_per_outcome are recorded one by one, the rest summed up when the search
// closes: a megabyte of ':' must not become a gigabyte of explanation. The rest cost a count each,
// no text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../types/status_types.hpp"
#include "words/loading.hpp"
#include "search_list.hpp"
#include "../files/sorting.hpp"

namespace cushim {
namespace detail {
namespace {

class attempt_log {
 public:
  static constexpr std::size_t listed_per_outcome = 32;  // attempts of one list and outcome recorded one by one

  // How many entries of one search list had one outcome.
  struct list_count {
    std::string list;
    outcome result;
    std::size_t count;
  };

  explicit attempt_log(std::vector<attempt>& attempts) : attempts_(attempts) {}

  // Counts a candidate of `list` (empty: of no list) with this outcome; whether it is to be
  // recorded (and logged) one by one.
  bool counts_one_by_one(std::string_view list, outcome result) {
    ++places_;
    return list.empty() || ++count_of(list, result) <= listed_per_outcome;
  }

  void add(std::string rule, const std::string& path, outcome result, std::string_view detail) {
    attempts_.push_back({std::move(rule), path, result, std::string(detail)});
  }

  // Every candidate counted, listed or not.
  std::size_t places() const { return places_; }

  // Once the search is over: after the last listed attempt of each list, one attempt that sums up
  // the entries not listed. The counts, in the order of the list's name, then the outcome's.
  const std::vector<list_count>& close() {
    sort_short_list(list_outcomes_, [](const list_count& a, const list_count& b) {
      return a.list != b.list ? a.list < b.list : a.result < b.result;
    });
    for (const list_count& n : list_outcomes_) {
      if (n.count <= listed_per_outcome) continue;
      std::size_t after = 0;
      for (std::size_t i = 0; i < attempts_.size(); ++i) {
        if (list_of_rule(attempts_[i].rule) == n.list) after = i + 1;
      }
      attempts_.insert(
          attempts_.begin() + std::ptrdiff_t(after),
          {n.list + "[...]", "", n.result, attempt_texts::more_entries(n.list, n.count - listed_per_outcome)});
    }
    return list_outcomes_;
  }

 private:
  // How many entries of `list` had this outcome so far. A list's entries come one after another,
  // so the last count asked for is tried first.
  std::size_t& count_of(std::string_view list, outcome result) {
    if (last_count_ < list_outcomes_.size() && list_outcomes_[last_count_].result == result &&
        list_outcomes_[last_count_].list == list) {
      return list_outcomes_[last_count_].count;
    }
    for (last_count_ = 0; last_count_ < list_outcomes_.size(); ++last_count_) {
      const list_count& n = list_outcomes_[last_count_];
      if (n.result == result && n.list == list) return list_outcomes_[last_count_].count;
    }
    list_outcomes_.push_back({std::string(list), result, 0});
    return list_outcomes_.back().count;
  }

  std::vector<attempt>& attempts_;
  std::size_t places_ = 0;
  std::vector<list_count> list_outcomes_;
  std::size_t last_count_ = 0;  // list_outcomes_ index count_of found last
};

}  // namespace
}  // namespace detail
}  // namespace cushim
