// The version a loaded copy reports, against the headers the program was compiled with and the
// version policy (docs/checks.md, "What is checked, in order").
#pragma once

#include <string>

#include "../types/status_types.hpp"
#include "../search/candidate_check.hpp"
#include "../probe/child_probe.hpp"
#include "../search/descriptor.hpp"
#include "../platform/os.hpp"
#include "../search/words/loading.hpp"
#include "../files/versions.hpp"
#include CUSHIM_OS_FILE_VERSION

namespace cushim {
namespace detail {
namespace {

// What check_version found.
struct version_verdict {
  outcome result;      // loaded, not_the_library or wrong_version
  long reported = 0;   // the version the copy reported, also when refused; 0 when none was read
  std::string source;  // where it was read: the version function, or the file
};

// Reads the version the copy reports (the file's own when the function says 0 and the library
// allows it) and applies the policy; the reason goes in check.detail, an accepted older minor's
// warning in the status. In a probe child (`child_fd` >= 0) the call is named as a step first.
inline version_verdict check_version(candidate_check& check, version_policy policy, int child_fd) {
  const library_descriptor& d = *check.lib.desc;
  std::string& detail = check.detail;
  platform::any_function f = platform::find_symbol(check.handle, d.version_function);
  if (!f) {
    detail = attempt_texts::lacks_version_function(d);
    return {outcome::not_the_library, 0, {}};
  }
  version_verdict verdict{outcome::loaded, 0, d.version_function};
  if (child_fd >= 0) child_step(child_fd, std::string("in ") + d.version_function);
  long v = d.query_version(f);
  if (v == 0 && d.ask_file_when_zero) v = platform::version_from_file(check.path, d, verdict.source);
  verdict.reported = v;
  version_parts got = d.decode_version(v), want = d.decode_version(d.compiled_version);
  std::string found = attempt_texts::reported_version(d, v);
  detail = detail.empty() ? found : found + "; " + detail;
  const bool newer_major =
      (d.newer_major_works && got.major > want.major) || (d.older_major_works && got.major < want.major);
  if (got.major != want.major && !newer_major) {
    detail += "; " + attempt_texts::compiled_for_major(want.major);
    verdict.result = outcome::wrong_version;
    return verdict;
  }
  if (!newer_major && got.minor < want.minor) {
    if (policy == version_policy::same_major_newer_minor && !d.older_minor_works) {
      detail += "; " + problems_of::older_than_compiled(d);
      verdict.result = outcome::wrong_version;
      return verdict;
    }
    check.lib.st.problems.push_back(problems_of::older_minor(d, v, check.path));
  }
  check.version = v;
  return verdict;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
