// The report explain() and explain_json() render: every library's status and every problem,
// computed once (checks.hpp) before either renderer runs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "../search/descriptor.hpp"
#include "../load/driver.hpp"

namespace cushim {
namespace detail {
namespace {

struct report_driver {
  driver_status probe;
  std::vector<problem> problems;
};

struct report_library {
  const library_descriptor* desc = nullptr;
  const status* st = nullptr;
  std::vector<problem> problems;  // the status's own, then what the cross-checks found
  std::vector<std::string> missing_functions;
  std::vector<std::pair<std::string, std::string>> blocked_functions;  // function, sub-library file
  std::vector<problem> call_problems;  // one per function that returns a fallback (blocked or missing)
};

struct report {
  report_driver driver;
  std::vector<report_library> libraries;  // in library order
  std::vector<std::string> notes;

  const report_library* find(library lib) const {
    for (const report_library& l : libraries) {
      if (l.desc->id == lib) return &l;
    }
    return nullptr;
  }
};

}  // namespace
}  // namespace detail
}  // namespace cushim
