// A copy the system loader loaded, accepted or refused (docs/checks.md, "What is checked, in
// order"): its identity, the library's own checks before its version (cuDNN's sub-libraries), the
// version (version_check.hpp), the checks after it; an accepted copy becomes the library's.
#pragma once

#include <string>

#include "../types/status_types.hpp"
#include "../search/candidate_check.hpp"
#include "../probe/child_probe.hpp"
#include "../platform/os.hpp"
#include "../search/pinned_load.hpp"
#include "../search/words/loading.hpp"
#include "../search/search_list.hpp"
#include "../search/search_record.hpp"
#include "../search/state.hpp"
#include "version_check.hpp"
#include CUSHIM_OS_FILE_VERSION

namespace cushim {
namespace detail {
namespace {

class copy_acceptance {
 public:
  // `child_fd`: in a probe child, its pipe to the parent, on which each step is named first.
  copy_acceptance(library_state& lib, const options& opts, search_record& record, int child_fd = -1)
      : lib_(lib), d_(*lib.desc), opts_(opts), record_(record), child_fd_(child_fd) {}

  // Adopts the copy when every check passes; unloads it and records why when one refuses it.
  bool accept(platform::library_handle h, const candidate& c, outcome success) {
    candidate_check check{lib_, c.path, h, 0, {}, {}, false};
    if (child_fd_ >= 0) child_step(child_fd_, step_texts::checking);
    version_verdict version{platform::check_identity(c.path, d_, check.detail), 0, {}};
    if (version.result == outcome::loaded && d_.hooks.before_version) version.result = d_.hooks.before_version(check);
    if (version.result == outcome::loaded) version = check_version(check, opts_.policy, child_fd_);
    reported_version_ = version.reported;
    if (version.result == outcome::loaded && d_.hooks.after_version) version.result = d_.hooks.after_version(check);
    if (version.result != outcome::loaded) {
      for (platform::library_handle preload : check.preloads) platform::unload_library(preload);
      lib_.sublibrary_pending.clear();
      platform::unload_library(h);
      record_.refused(c, version.result, check.detail, check.part_unusable);
      return false;
    }
    record_.attempt(c, success, check.detail);
    adopt(h, c, check, version.source);
    return true;
  }

  // The version the last copy checked reported; 0 when none was read.
  long reported_version() const { return reported_version_; }

 private:
  void adopt(platform::library_handle h, const candidate& c, candidate_check& check, const std::string& source) {
    lib_.sublibrary_handles.insert(lib_.sublibrary_handles.end(), check.preloads.begin(), check.preloads.end());
    check.preloads.clear();
    lib_.handle = h;
    lib_.st.code = error_code::ok;
    lib_.st.version = int(check.version);
    lib_.st.version_source = source;
    lib_.st.path = c.path;
    lib_.st.found_by = rule_of(c);
    if (d_.hooks.adopted) d_.hooks.adopted(lib_, h);
    if (record_.logging()) {
      record_.log(log_texts::using_copy(c.path, version_text(d_, lib_.st.version), lib_.st.found_by));
    }
  }

  library_state& lib_;
  const library_descriptor& d_;
  const options& opts_;
  search_record& record_;
  int child_fd_;
  long reported_version_ = 0;
};

// In a probe child (child_work.hpp): what the loader does with a candidate from its load on, each
// step named on fd first. Default options: the checks depend only on the request, and log nothing.
inline void check_copy_in_child(library_state& lib, const std::string& path, int fd) {
  const options defaults{};
  search_record record(lib, defaults);
  copy_acceptance acceptance(lib, defaults, record, fd);
  child_step(fd, step_texts::loading);
  pinned_load load(path);  // never a FIFO swapped in since the parent looked
  if (load.handle()) acceptance.accept(load.handle(), {"probe_in_child", path, entry_kind::absolute}, outcome::loaded);
  child_step(fd, done_step);
}

}  // namespace
}  // namespace detail
}  // namespace cushim
