// The checks a candidate passes before it is loaded (docs/checks.md, "What is checked, in order"):
// an absolute entry, a file no earlier candidate was, a regular file, in a trusted folder when only
// those are wanted, of a format this process can load. Each refusal is an attempt's outcome and
// detail; nothing here loads a file.
#pragma once

#include <string>

#include "../types/status_types.hpp"
#include "descriptor.hpp"
#include "../platform/os.hpp"
#include "../platform/platform.hpp"
#include "words/loading.hpp"
#include "search_list.hpp"
#include CUSHIM_OS_BINARY_CHECK

namespace cushim {
namespace detail {
namespace {

// What screening a candidate found.
struct screen_verdict {
  outcome result;             // loaded: it may be loaded; else the attempt's outcome
  std::string detail;         // the attempt's detail
  platform::file_check file;  // the file checked, which the load pins (pinned_load)
};

// The checks of the path alone, which read nothing of the file: an absolute entry, a file no earlier
// candidate was, a regular file. The loader's screen makes them first; the driver's probe
// (load/driver.hpp), which tries the places the system loader looks, makes only these.
class path_screen {
 public:
  screen_verdict screen(const candidate& c) {
    if (c.kind == entry_kind::empty) return {outcome::skipped_empty, attempt_texts::empty_entry, {}};
    if (c.kind == entry_kind::relative) return {outcome::skipped_relative, attempt_texts::relative_entry, {}};
    if (!seen_.first_text(c.path)) return {outcome::duplicate, attempt_texts::duplicate, {}};  // no system call
    screen_verdict v{
        outcome::loaded, {}, c.list ? platform::check_file_in_listed_folder(c.path) : platform::check_file(c.path)};
    if (v.file.identity.known() && !seen_.first_identity(v.file.identity)) {  // another path to a file seen before
      return {outcome::duplicate, attempt_texts::duplicate, {}};
    }
    switch (v.file.state) {
      case platform::file_state::absent: v.result = outcome::absent; return v;
      case platform::file_state::folder_absent: v.result = outcome::folder_absent; return v;
      case platform::file_state::not_a_file:
        v.result = outcome::not_a_file;
        v.detail = v.file.detail;
        return v;
      case platform::file_state::unreadable:
        v.result = outcome::unreadable;
        v.detail = v.file.detail;
        return v;
      case platform::file_state::regular: break;
    }
    return v;
  }

  // Whether a copy the system's default DLL folders gave is a file no earlier candidate was.
  bool first_copy(const std::string& path) { return seen_.first_time(platform::identity_of(path), path); }

 private:
  seen_files seen_;
};

class candidate_screen {
 public:
  candidate_screen(const library_descriptor& d, const options& opts) : d_(d), opts_(opts) {}

  // Every check but a default_dirs entry's (its file is known once loaded: first_copy).
  screen_verdict screen(const candidate& c) {
    screen_verdict v = paths_.screen(c);
    if (v.result != outcome::loaded) return v;
    std::string untrusted;
    if (trusted_only() && !platform::trusted_location(c.path, untrusted)) {
      v.result = outcome::untrusted_location;
      v.detail = attempt_texts::untrusted(untrusted, d_.system_only);
      return v;
    }
    v.result = platform::inspect_file(c.path, v.detail);
    return v;
  }

  bool first_copy(const std::string& path) { return paths_.first_copy(path); }

 private:
  // Always for a library the system installs (the driver); else options.trusted_dirs_only, or
  // CUSHIM_TRUSTED_DIRS_ONLY=1 when the environment may be read.
  bool trusted_only() const {
    if (d_.system_only || opts_.trusted_dirs_only) return true;
    const char* env = opts_.use_environment ? platform::get_environment("CUSHIM_TRUSTED_DIRS_ONLY") : nullptr;
    return env && std::string(env) == "1";
  }

  const library_descriptor& d_;
  const options& opts_;
  path_screen paths_;
};

}  // namespace
}  // namespace detail
}  // namespace cushim
