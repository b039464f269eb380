// The orders cushim puts its lists in. Every sort of names shares one comparator type, so the
// implementation holds one copy of std::sort for them; short lists of records get an insertion
// sort, a few dozen bytes of code where std::sort brings thousands for each element type.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace cushim {
namespace detail {
namespace {

// Name order, or, with a prefix length, the number after the prefix, highest first, then the name.
struct name_order {
  std::size_t number_at = std::string::npos;
  bool operator()(const std::string& a, const std::string& b) const {
    if (number_at != std::string::npos) {
      long x = std::atol(a.c_str() + number_at), y = std::atol(b.c_str() + number_at);
      if (x != y) return x > y;
    }
    return a < b;
  }
};

inline void sort_names(std::vector<std::string>& names) { std::sort(names.begin(), names.end(), name_order{}); }

// Names that all start with `prefix_length` characters of one prefix, then a number: cuda-13.2
// before cuda-13.0.
inline void sort_by_number_after(std::vector<std::string>& names, std::size_t prefix_length) {
  std::sort(names.begin(), names.end(), name_order{prefix_length});
}

// For lists of a few dozen records at most.
template <class T, class Less>
void sort_short_list(std::vector<T>& items, Less less) {
  for (std::size_t i = 1; i < items.size(); ++i) {
    for (std::size_t j = i; j > 0 && less(items[j], items[j - 1]); --j) std::swap(items[j], items[j - 1]);
  }
}

}  // namespace
}  // namespace detail
}  // namespace cushim
