// The words of a framework against the machine (how it was built, the wheels it pins), and of the
// interpreter a bare python or an IDE starts when that one has no CUDA framework and another
// environment has.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/search/path_list.hpp>
#include "../machine/machine.hpp"
#include "../machine/text_values.hpp"
#include "compatibility.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// A framework's install command (install.hpp) for the driver of this machine where it is known:
// "{cuda}" becomes "XY", and what X.Y may be follows.
inline std::string install_text(const machine::options& o, const char* install) {
  std::string text = install;
  std::size_t at = text.find("{cuda}");
  if (at == std::string::npos) return text;
  text.replace(at, 6, "XY");
  if (o.driver_found && o.driver_cuda_version > 0) {
    return text + ", for a CUDA X.Y up to " + cuda_text(o.driver_cuda_version) + " (what this driver supports)";
  }
  return text + ", for a CUDA X.Y the driver supports (nvidia-smi shows which)";
}

// A CPU build where that is what most installs are (OpenCV): a note.
inline std::string built_without_cuda(const machine::framework& fw, const char* install) {
  return fw.name + " " + fw.version +
         " is built without CUDA (its imports reach none of CUDA's "
         "libraries): it uses no GPU; for one that does, " +
         install;
}

// `version_file`: the file that says so, or null (its files); `cuda_key`: its CUDA value there,
// or null.
inline machine::problem cpu_only_build(const machine::framework& fw, const std::string& file, const char* version_file,
                                       const char* cuda_key, const std::string& install) {
  return warning(
      "cpu_only_build", fw.name + " " + fw.version + " is a CPU-only build", file,
      std::string(version_file ? version_file : "its files") + " says it was built without CUDA" +
          (cuda_key ? std::string(" (") + cuda_key + (fw.cuda.empty() ? " is None" : " = " + fw.cuda) + ")"
                    : std::string()) +
          ": it never uses a GPU, whatever the driver and the toolkits (" + fw.name +
          " reports no CUDA device; a package manager that took the default index often installs this build)",
      install);
}

inline machine::problem rocm_build(const machine::framework& fw, const std::string& file, const std::string& install) {
  return warning("rocm_build", fw.name + " " + fw.version + " is a ROCm build (HIP " + fw.hip + "), for AMD GPUs", file,
                 "it uses AMD's HIP runtime, not CUDA: it sees no NVIDIA GPU", install);
}

// `path`: the CUDA library its files name, which is not there.
inline machine::problem framework_files_missing(const machine::framework& fw, const std::string& path) {
  return warning("framework_files_missing",
                 fw.name + " " + fw.version + " is a CUDA build but its CUDA library is missing", path,
                 "its CUDA support cannot load: a partial install, or files removed by another package",
                 "pip install --force-reinstall " + fw.distribution + "==" + fw.version);
}

// Its METADATA pins `pinned` of the wheel `w`, of which another release is installed.
inline machine::problem required_wheel_mismatch(const machine::framework& fw, const machine::wheel& w,
                                                const std::string& pinned) {
  return warning(
      "required_wheel_mismatch",
      fw.name + " " + fw.version + " requires " + w.name + "==" + pinned + "; " + w.version + " is installed", w.path,
      "its METADATA pins that release: it was built and tested with it, and a cuDNN or cuBLAS of "
      "another release can refuse its calls or behave differently",
      "pip install " + w.name + "==" + pinned);
}

// `cudnn`: the cuDNN it loads from its own folder; `copied`: the one copied into `toolkit`.
inline std::string unused_toolkit_cudnn(const machine::framework& fw, const machine::library_load& cudnn,
                                        const machine::cudnn_install& copied, const std::string& toolkit) {
  return fw.name + " uses the cuDNN " + leading_parts(cudnn.version, 3) + " in its own folder " +
         parent_dir(cudnn.path) + ", not the cuDNN " + leading_parts(copied.library_version, 3) + " copied into " +
         toolkit + ": that copy changes nothing for " + fw.name;
}

// Where an IDE chooses the interpreter, in its own words.
inline std::string ide_choice_fix(const machine::ide_interpreter& i, const std::string& python) {
  if (i.ide == "PyCharm") {
    return "in PyCharm, Settings > Project: " + file_name_of(i.project) +
           " > Python Interpreter > Add Interpreter > Add Local Interpreter, and choose " + python +
           " (Conda Environment, or Select existing)";
  }
  return "in VS Code, run \"Python: Select Interpreter\" and choose " + python +
         " (or set python.defaultInterpreterPath in " + i.settings + " to it)";
}

// The IDE runs the project with `started`, which has no CUDA framework; `cuda` (the frameworks
// `names`) has, and its interpreter is `python`.
inline machine::problem ide_wrong_interpreter(const machine::ide_interpreter& i, const machine::environment& started,
                                              const std::vector<std::string>& names, const machine::environment& cuda,
                                              const std::string& python) {
  std::string chosen = i.name.empty() ? "VS Code's python.defaultInterpreterPath (" + i.settings + ")"
                                      : "PyCharm's project interpreter (" + i.settings + " names \"" + i.name +
                                            "\", and " + i.how + " gives its path)";
  return warning("ide_wrong_interpreter",
                 i.ide + " runs " + i.project + " with " + i.path + " (" + started.kind + " " + started.path +
                     "), which has no CUDA framework; " + joined(names) + " is in " + cuda.path,
                 i.settings,
                 chosen +
                     " runs the project's code, its console and its run configurations: importing the framework "
                     "fails there (No module named ...), whatever else the machine has",
                 ide_choice_fix(i, python));
}

// A bare command on PATH starts `started`, whose frameworks (`has`: "torch 2.5.1+cpu", or empty)
// are no CUDA builds; `cuda` (the frameworks `names`) has them, and its interpreter is `python`.
inline machine::problem wrong_interpreter(const machine::command_on_path& c, const machine::environment& started,
                                          const std::string& has, const std::vector<std::string>& names,
                                          const machine::environment& cuda, const std::string& python) {
  return warning(
      "wrong_interpreter",
      c.command + " on PATH starts " + c.path + " (" + started.kind + " " + started.path + "), which has " +
          (has.empty() ? "no CUDA framework" : "only " + has) + "; " + joined(names) + " is in " + cuda.path,
      c.path,
      "a bare " + c.command + " (a shell, a script's #!/usr/bin/env " + c.command +
          ", an IDE left at its default interpreter) runs without CUDA there: " +
          (has.empty() ? "importing the framework fails (No module named ...)" : "it reports no CUDA device"),
      "run " + python + " (or activate " + cuda.path + " first); in an IDE, choose " + python + " as the interpreter");
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
