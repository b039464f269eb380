// The NVIDIA driver (libcuda.so.1, nvcuda.dll), queried for the report: is it there, and which
// CUDA version it supports. The runtime loads it itself; a program that opts into the driver API
// (CUSHIM_CUDA_DRIVER) has it loaded as a library instead, whose search the report then uses.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "../probe/child_probe.hpp"
#include "../search/candidate_screen.hpp"
#include "../search/words/dependencies.hpp"
#include "../platform/os.hpp"
#include "../search/pinned_load.hpp"
#include "../search/state.hpp"
#include "../search/search_list.hpp"
#include "../search/words/loading.hpp"
#include "words/driver.hpp"
#include CUSHIM_OS_DRIVER_FILES

namespace cushim {
namespace detail {
namespace {

struct driver_status {
  bool found = false;
  std::string path;
  int cuda_version = 0;            // cuDriverGetVersion: the newest CUDA the driver supports (M*1000+m*10)
  std::vector<std::string> stubs;  // files that are the toolkit's link-time stub, wherever they are
  std::vector<attempt> attempts;
  std::string blocked_by;  // a FIFO the system loader's search meets first: its load by name waits forever
};

// cuDriverGetVersion: the newest CUDA the driver supports; it works before cuInit.
// CUDA_ERROR_STUB_LIBRARY: the toolkit's link-time libcuda answers every call with it.
constexpr int cuda_error_stub_library = 34;

// cuDriverGetVersion: the newest CUDA the driver supports (it works before cuInit), or -1 when
// the file is the toolkit's stub, 0 when it does not say.
inline int driver_cuda_version(platform::library_handle h) {
  using get_version = int (*)(int*);  // CUresult cuDriverGetVersion(int*)
  int version = 0;
  if (platform::any_function f = platform::find_symbol(h, "cuDriverGetVersion")) {
    if (reinterpret_cast<get_version>(f)(&version) == cuda_error_stub_library) return -1;
  }
  return version;
}

// In a probe child (child_work.hpp): the driver loaded and asked for its version, each step named
// on fd first.
inline void check_driver_in_child(const std::string& path, int fd) {
  child_step(fd, step_texts::loading);
  pinned_load load(path);  // never a FIFO swapped in since the parent looked
  child_step(fd, "in cuDriverGetVersion");
  if (load.handle()) driver_cuda_version(load.handle());
  child_step(fd, done_step);
}

// The CUDA toolkit's link-time stub of the driver answers every call with "stub library": never the
// driver, wherever it is. Known by its folder, or by its answer once loaded (copied or linked as
// libcuda.so.1 out of stubs/, a common container mistake).
inline bool in_stubs_folder(const std::string& path) {
  return platform::canonical_path(path).find("/stubs/") != std::string::npos;
}

// Each place the system loader looks for the driver, its path screened as the loader's are
// (path_screen), then loaded. Unlike the loader's search it lists no entry that is not absolute and
// no file met before (the report counts the places listed), and any other file that is not a
// regular one is not_a_file with what the path names; a FIFO ends it: the runtime's load of the
// driver by name would wait there. The toolkit's link-time stub is recorded and ignored.
inline driver_status probe_driver() {
  driver_status d;
  const child_probe_settings probe = current_child_probe_settings();
  path_screen screen;
  for (const candidate& c : platform::system_install_candidates(platform::driver_file_name())) {
    if (c.kind != entry_kind::absolute) continue;
    screen_verdict screened = screen.screen(c);
    if (screened.result == outcome::duplicate) continue;
    const platform::file_check& fc = screened.file;
    if (screened.result != outcome::loaded) {
      d.attempts.push_back({rule_of(c), c.path,
                            screened.result == outcome::unreadable ? outcome::not_a_file : screened.result,
                            fc.blocks_open ? std::string(words::fifo_blocks_text) : fc.detail});
      if (!fc.blocks_open) continue;
      d.blocked_by = c.path;  // the runtime's load of the driver by name never gets past it
      break;
    }
    if (in_stubs_folder(c.path)) {
      d.stubs.push_back(c.path);
      d.attempts.push_back({rule_of(c), c.path, outcome::not_the_library, words::stub_in_stubs_folder()});
      continue;
    }
    std::string failure = probe.enabled ? failure_in_child({"driver", c.path}, probe) : std::string();
    if (!failure.empty()) {
      d.attempts.push_back({rule_of(c), c.path, outcome::crashed, failure});
      continue;
    }
    pinned_load load(c.path, &fc);  // the file checked is the file loaded
    if (!load.handle()) {
      d.attempts.push_back(
          {rule_of(c), c.path, outcome::load_failed,
           load.changed().empty() ? load.error() : attempt_texts::changed_before_load(load.changed())});
      continue;
    }
    int version = driver_cuda_version(load.handle());
    if (version < 0) {  // the stub copied or linked as libcuda.so.1, out of any stubs/ folder
      platform::unload_library(load.handle());
      d.stubs.push_back(c.path);
      d.attempts.push_back(
          {rule_of(c), c.path, outcome::not_the_library, words::stub_by_answer(cuda_error_stub_library)});
      continue;
    }
    d.cuda_version = version;
    d.found = true;
    d.path = c.path;
    d.attempts.push_back({rule_of(c), c.path, outcome::loaded, {}});
    break;  // stays loaded: the runtime would load the same file
  }
  return d;
}

// A FIFO where the system loader looks for the driver, met before any regular file there, in the
// places the doctor's driver section lists (probe_driver): a load of the driver by name, the CUDA
// runtime's and cuDNN's on their first calls that need it, would open it and wait for a writer
// forever. Empty when there is none, or when the driver is in the process already (a load by name
// then finds it there). Looked at once, before the first call that would load the driver: a few
// stat() calls, and ld.so.cache's entries for the file, read once per process for every search.
inline const std::string& driver_blocker() {
  static std::mutex* looking = new std::mutex;
  static const std::string* found = nullptr;
  std::lock_guard<std::mutex> lock(*looking);
  if (found) return *found;
  std::string fifo;
  if (platform::loaded_copy_path(platform::driver_file_name()).empty()) {
    for (const candidate& c : platform::system_install_candidates(platform::driver_file_name())) {
      if (c.kind != entry_kind::absolute) continue;
      platform::file_check fc = platform::check_file(c.path);
      if (fc.state == platform::file_state::regular) break;  // the loader takes it, or stops there
      if (!fc.blocks_open) continue;
      fifo = c.path;
      break;
    }
  }
  found = new std::string(std::move(fifo));
  return *found;
}

// Probed once. Never destroyed: a report may be asked for at exit.
inline const driver_status& driver() {
  static std::mutex* probing = new std::mutex;
  static driver_status* d = nullptr;
  std::lock_guard<std::mutex> lock(*probing);
  if (!d) d = new driver_status(probe_driver());
  return *d;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
