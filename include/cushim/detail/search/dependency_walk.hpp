// What loading a file needs that the system loader would not get, found by walking its
// dependencies as the loader would (dependencies.hpp of posix/ or windows/): the loader's own
// message often names the wrong file, the walk the one that is missing and the chain that needs it.
#pragma once

#include <string>
#include <vector>

#include "missing_dependency.hpp"
#include "../platform/os.hpp"
#include "words/loading.hpp"
#include CUSHIM_OS_DEPENDENCIES
#include CUSHIM_OS_DRIVER_FILES

namespace cushim {
namespace detail {
namespace {

// Each dependency of `path` the system loader would not find, with the chain of files that needs
// it, joined by "; "; empty when the walk finds none.
inline std::string missing_dependencies_of(const std::string& path) {
  std::string text;
  for (const missing_dependency& m : platform::dependency_resolver().missing(path)) {
    text += (text.empty() ? "" : "; ") + describe(m);
  }
  return text;
}

// For a load of `path` that never finished: the FIFO that kept it waiting, where the system loader
// looks for a file that load needs (the DT_NEEDED closure, or the driver, which NVIDIA's libraries
// load by name as they start); then `cause` says so. Empty when there is none.
inline std::string fifo_blocking_load(const std::string& path, std::string& cause) {
  std::string name, fifo = platform::dependency_resolver().blocker_of_load(path, platform::driver_file_name(), name);
  if (!fifo.empty()) cause = attempt_texts::load_meets_fifo(name, fifo);
  return fifo;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
