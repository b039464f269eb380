// The words of the CUDA toolkits and of the variables that name a toolkit or a cuDNN: where a
// toolkit's version comes from, a variable naming a folder that is gone or holds neither, and the
// variables and PATH selecting different toolkits.
#pragma once

#include <string>

#include <cushim/detail/search/path_list.hpp>
#include "../machine/machine.hpp"
#include "files.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// --- A toolkit's version, from its files ---

inline std::string no_cuda_version_entry(const std::string& path) {
  return path + " has no \"cuda\" entry with a \"version\"";
}
inline std::string no_cuda_version_line(const std::string& path) { return path + " has no \"CUDA Version\" line"; }

// Why the version files give no version: `any`: some exist.
inline std::string version_files_silent(bool any) {
  return any ? "its version files do not say" : "it has no version.json or version.txt";
}

// The version from the CUDA runtime's wheel record (dist-info/nvidia_cuda_runtime-...), or from
// the runtime's file (`file_text`: "file name libcudart.so.12.4.127"); `why`: version_files_silent.
inline std::string version_from_runtime_record(const std::string& record) {
  return "the runtime's version in dist-info/" + record;
}
inline std::string version_from_runtime_record_note(const std::string& why, const std::string& record) {
  return why + ": the version is the runtime's, from dist-info/" + record;
}
inline std::string version_from_runtime_file(const std::string& file_text) { return "the runtime's " + file_text; }
inline std::string version_from_runtime_file_note(const std::string& why, const std::string& file_text) {
  return why + ": the version is the runtime's, from its " + file_text;
}
inline std::string folder_name_source() { return "the folder's name"; }
inline std::string version_from_folder_name_note(const std::string& why) {
  return why + " and no CUDA runtime that names its version: the version is the folder's name";
}
inline std::string version_unknown_note(const std::string& why) {
  return why + ", and nothing else in it names its version";
}

// --- Finding them ---

inline std::string more_toolkits_than(std::size_t limit) {
  return "more than " + std::to_string(limit) + " toolkits: the others are not examined";
}

// How the cuDNN files of a toolkit were found.
inline std::string copied_into_toolkit() { return "copied into the toolkit"; }
inline std::string build_with_this_toolkit() { return "a build with this toolkit"; }

// --- Variables that name a toolkit or a cuDNN ---

// What the folder a variable names is: the ends of "CUDA_PATH names /x, which ..." (files.hpp has
// the ones every variable shares).
inline std::string removed_toolkit() { return "which does not exist (a removed toolkit?)"; }
inline std::string holds_no_toolkit(const char* nvcc_file) {
  return std::string("which holds no toolkit (no bin/") + nvcc_file +
         ", version.json, version.txt or include/cuda_runtime_api.h)";
}
inline std::string holds_no_cudnn(const std::string& main_9, const std::string& main_8) {
  return "which holds no cuDNN (no include/cudnn_version.h, no " + main_9 + " or " + main_8 + ")";
}
inline std::string holds_no_cudnn_header() { return "which holds neither cudnn_version.h nor cudnn.h"; }
inline std::string leads_to_no_cudnn(const std::string& main_9, const std::string& main_8, const std::string& dirs) {
  return "which leads to no cuDNN library (no " + main_9 + " or " + main_8 + " in " + dirs + ")";
}

// `which`: one of the above; `installed`: the toolkits there are ("a, b"), or empty.
inline machine::problem variable_names_no_toolkit(const std::string& name, const std::string& value,
                                                  const std::string& which, const std::string& installed) {
  return warning("variable_names_no_toolkit", name + " names " + value + ", " + which, value,
                 "build tools and loaders that read " + name +
                     " (CMake's FindCUDAToolkit, setup.py builds, torch's loader for CUDA_PATH_V<x>_<y>) look for the "
                     "toolkit there and find nothing",
                 "set " + name + " to an installed toolkit" + (installed.empty() ? "" : " (" + installed + ")") +
                     ", or remove the variable");
}

inline machine::problem variable_names_no_cudnn(const std::string& name, const std::string& value,
                                                const std::string& which) {
  return warning("variable_names_no_cudnn", name + " names " + value + ", " + which, value,
                 "a source build (PyTorch's setup.py, CMake's FindCUDNN modules) takes cuDNN from " + name +
                     " and fails to configure, or falls back to another cuDNN without saying so",
                 "set " + name + " to the folder of an installed cuDNN, or remove the variable");
}

// --- The variables and PATH against each other ---

// "/usr/local/cuda-12.4 (CUDA 12.4.1)".
inline std::string described(const machine::toolkit& t) {
  return t.path + (t.version.empty() ? std::string() : " (CUDA " + t.version + ")");
}

// `variable` selects `a`; `other` (another variable, or the first nvcc on PATH when `nvcc`)
// selects `b`.
inline machine::problem toolkit_selection_disagrees(const std::string& variable, const machine::toolkit& a,
                                                    const std::string& other, const machine::toolkit& b, bool nvcc) {
  return warning(
      "toolkit_selection_disagrees",
      variable + " selects " + described(a) + ", but " +
          (nvcc ? "the first nvcc on PATH is " + b.nvcc : other + " selects " + described(b)) +
          (nvcc ? (b.version.empty() ? std::string() : " (CUDA " + b.version + ")") : std::string()),
      a.path,
      "build tools disagree: CMake's FindCUDAToolkit and setup.py builds take the toolkit from " + variable + ", " +
          (nvcc ? "a build that runs nvcc from PATH compiles with the other one" : "others take it from " + other) +
          ": a program then compiles with one CUDA's headers and links or loads the other's libraries",
      nvcc ? "put " + join_path(a.path, "bin") + " first on PATH, or set " + variable + " to " + b.path
           : "set both to the toolkit you build with");
}

// CUDA_PATH_V<x>_<y> (`name`) names a toolkit of another release than `expected` (x.y).
inline machine::problem variable_version_mismatch(const std::string& name, const machine::toolkit& t,
                                                  const std::string& expected) {
  return warning("variable_version_mismatch",
                 name + " names " + t.path + ", a CUDA " + t.version + " toolkit, not CUDA " + expected, t.path,
                 "tools take " + name + " for CUDA " + expected +
                     "'s files: torch's loader adds its bin folder for a build for CUDA " + expected +
                     ", NVIDIA's MSBuild rules compile with it",
                 "set " + name + " to the CUDA " + expected + " toolkit, or remove it");
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
