// The words of a framework's load as its own loader makes it (stacks/framework_loads.hpp and the
// Linux loader): where a loaded file's version comes from, cuDNN's loads of its sub-libraries by
// name from that process, and on Linux an import that is not found, a library its wheels should
// bring, and LD_LIBRARY_PATH putting another copy first. The Windows loaders' words are in
// windows_loads.hpp.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/search/path_list.hpp>
#include "../machine/machine.hpp"
#include "cudnn.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// Where a loaded file's version comes from when a wheel installed it.
inline std::string from_wheel(const machine::wheel& w) { return "its wheel, " + w.name + " " + w.version; }

// --- cuDNN's loads of its sub-libraries by name ---

// Where a load by bare name looks from cuDNN's main library, on each platform.
inline std::string by_name_places(bool windows) {
  return windows ? "the application's folder, System32, the Windows folder, PATH"
                 : "LD_LIBRARY_PATH, the RUNPATH of cuDNN's main library, /etc/ld.so.cache, the system folders";
}

// How to have cuDNN's by-name load of `file` (a sub-library of the cuDNN at `main`) find it.
inline std::string by_name_fix(bool windows, const std::string& main, const std::string& file) {
  if (windows) {
    return "put the folder with cuDNN's DLLs on PATH (activating a conda environment puts its Library\\bin there)";
  }
  return "install every file of that cuDNN release beside " + main + " (reinstall its wheel or archive: " + file +
         " belongs to it), or put the folder that has the same release's " + file + " on LD_LIBRARY_PATH";
}

// Where the by-name loads start: "from torch's process," (`framework`). The sentences below go on
// after it.
inline std::string from_process(const std::string& framework) { return "from " + framework + "'s process,"; }

// The first `file` cuDNN `release` (at `main`) meets by name is `found`, of `found_release`
// (`source` says so); `context`: from_process or the platform's.
inline machine::problem cudnn_sublibrary_of_other_release(bool windows, const std::string& release,
                                                          const std::string& main, const std::string& context,
                                                          const std::string& file, const std::string& found,
                                                          const std::string& found_release, const std::string& source) {
  return warning(
      "cudnn_mixed_releases",
      "cuDNN's own load of " + file + " by name takes " + found + ", of cuDNN " + found_release + ", not " + release,
      found,
      "cuDNN " + release + " (" + main + ") loads its sub-libraries by name; " + context + " the first " + file +
          " that search meets is of another release (" + source +
          "): cuDNN fails with CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
      "remove the other release's folder (" + parent_dir(found) + ") from where the search looks (" +
          by_name_places(windows) + "), or install cuDNN " + release + "'s own " + file + " beside " + main);
}

// cuDNN at `main` finds none of `missing` by name; the search for the first looked in `searched`.
// `root_missing`: the root sub-library is one of them, so every call fails.
inline machine::problem cudnn_sublibrary_not_found(bool windows, const std::string& main, const std::string& context,
                                                   const std::vector<std::string>& missing,
                                                   const std::vector<std::string>& searched, bool root_missing) {
  return warning("cudnn_sublibrary_not_found",
                 "cuDNN's own load" + std::string(missing.size() == 1 ? " of " : "s of ") + joined(missing) +
                     " by name " + (missing.size() == 1 ? "finds" : "find") + " nothing",
                 main,
                 "cuDNN (" + main + ") loads its sub-libraries by name when it starts; " + context +
                     " the search for " + missing.front() + " looks in: " + joined(searched) +
                     ". cuDNN then fails with " +
                     (root_missing ? "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED for every call"
                                   : "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED when it needs one of them"),
                 by_name_fix(windows, main, missing.front()));
}

// --- The Linux loader ---

// Where torch's fallback looks when a CUDA library does not load (`nvidia`: site-packages/nvidia).
inline std::string torch_preload_place(const std::string& nvidia) {
  return nvidia + "/*/lib (torch's own preload of the nvidia wheels)";
}

// `fw` loads `missing` from its wheels' folders, else by name, and finds none; the search for the
// first looked in `searched`. `install`: how to install its CUDA build.
inline machine::problem framework_library_not_found(const machine::framework& fw, const std::string& site,
                                                    const std::vector<std::string>& missing,
                                                    const std::vector<std::string>& searched, const char* install) {
  return warning("framework_library_not_found", fw.name + " " + fw.version + " finds no " + joined(missing), site,
                 fw.name + " loads " + missing.front() + " from its wheel's folder, else by name: it looked in " +
                     joined(searched) + ", and its CUDA support does not start without it",
                 "pip install --force-reinstall " + fw.distribution + "==" + fw.version + " with its CUDA wheels (" +
                     install + ")");
}

// Loading its native library fails on `m`, as the dynamic loader says it.
inline machine::problem import_fails(const machine::framework& fw, const missing_dependency& m) {
  std::string fix = known_dependency_fix(m.name);
  return warning("import_fails",
                 fw.name + " cannot load " + file_name_of(fw.native_file) + ": " + m.name +
                     ": cannot open shared object file: No such file or directory",
                 m.needed_by(), describe(m),
                 !fix.empty()
                     ? fix
                     : "reinstall " + fw.distribution + " with its dependencies (pip install --force-reinstall " +
                           fw.distribution + "==" + fw.version +
                           "), which brings the nvidia-* wheels it requires; or put a folder that has " + m.name +
                           " on LD_LIBRARY_PATH");
}

inline std::string version_or_unknown(const std::string& version) {
  return version.empty() ? "version unknown" : version;
}

// LD_LIBRARY_PATH gives `load`, where the framework's RUNPATH leads to `intended`.
inline machine::problem shadowed_by_library_path(const machine::framework& fw, const machine::library_load& load,
                                                 const machine::library_load& intended) {
  return warning(
      "shadowed_by_library_path",
      "LD_LIBRARY_PATH puts another " + load.name + " before the one " + fw.name + " is built to load", load.path,
      fw.name + " loads " + load.path + " (" + version_or_unknown(load.version) +
          ") from LD_LIBRARY_PATH, which the loader searches before the RUNPATH that leads to " + intended.path + " (" +
          version_or_unknown(intended.version) + ", " + intended.version_source +
          "): a library of another release than the one " + fw.name + " " + fw.version + " was built and tested with",
      "remove " + parent_dir(load.path) + " from LD_LIBRARY_PATH when running " + fw.name +
          " (it comes first), or run it from an environment without that setting");
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
