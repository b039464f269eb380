// A checked file loaded as that very file (docs/checks.md, "What is checked, in order", 1):
// pinned first (platform::file_pin), its load watched (platform::load_watch), and what the system
// loader mapped compared with the pinned file. The pin is held until the pinned_load is destroyed,
// so cushim's checks of the loaded copy, which call into it, run while no other process can cut it.
#pragma once

#include <string>

#include "../platform/platform.hpp"
#include "state.hpp"
#include "../platform/words/files.hpp"

namespace cushim {
namespace detail {
namespace {

class pinned_load {
 public:
  explicit pinned_load(const std::string& path, const platform::file_check* checked = nullptr) : pin_(path, checked) {
    if (!pin_.unchanged()) {
      changed_ = pin_.why();
      return;
    }
    bool interrupted = false;
    {
      platform::load_watch watch(path, interrupted);
      result_ = platform::load_library(path);
    }
    if (interrupted) {  // also when a retry found the library elsewhere: the FIFO is still where the loader looks
      add_note(path + ": " + words::fifo_wait_ended);
      if (!result_.handle) result_.error += "; " + std::string(words::fifo_wait_ended);
    }
    platform::mapped_bytes mapped =
        result_.handle ? platform::mapped_file_start(result_.handle) : platform::mapped_bytes{};
    if (mapped.at && !pin_.same_as_mapped(mapped.at, mapped.size)) {
      platform::unload_library(result_.handle);
      result_.handle = nullptr;
      changed_ = words::loader_mapped_another_file;
    }
  }
  pinned_load(const pinned_load&) = delete;
  pinned_load& operator=(const pinned_load&) = delete;

  // The loaded copy: the file pinned, unchanged; null when refused.
  platform::library_handle handle() const { return result_.handle; }
  // Why the file is not the one checked (not loaded); empty when it is.
  const std::string& changed() const { return changed_; }
  // The system loader's refusal, when it refused the file pinned.
  const std::string& error() const { return result_.error; }

 private:
  platform::file_pin pin_;
  platform::load_result result_;
  std::string changed_;
};

}  // namespace
}  // namespace detail
}  // namespace cushim
