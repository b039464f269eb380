// The words of a cuDNN in a folder (copied into a toolkit, named by the build variables, on PATH)
// checked against itself, the CUDA it sits with and cuDNN's support matrix: headers without a
// library, releases that differ, a missing sub-library or import, another CUDA major.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/compatibility.hpp>
#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/search/path_list.hpp>
#include <cushim/detail/files/pe.hpp>
#include "../machine/machine.hpp"
#include "../machine/text_values.hpp"
#include "compatibility.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// --- What its files say ---

// cudnn.h without CUDNN_MAJOR (cuDNN 8 and later keep it in cudnn_version.h, here `missing`).
inline std::string no_major_in_cudnn_h(const std::string& header, const std::string& missing) {
  return header + " has no CUDNN_MAJOR and " + missing + " is missing";
}
inline std::string no_major_in_header(const std::string& header) {
  return header + " has no CUDNN_MAJOR: not cuDNN's version header, or damaged";
}

// Where the CUDA major a cuDNN was built for comes from: "libcudnn_ops.so.9 imports libcublasLt.so.12".
inline std::string file_imports(const std::string& file, const std::string& import) {
  return file + " imports " + import;
}

// --- Checked against itself and what it sits with ---

// "what a build with /usr/local/cuda-12.4 finds": where a build's cuDNN is, for a sentence.
inline std::string what_a_build_finds(const std::string& toolkit) { return "what a build with " + toolkit + " finds"; }

// The fix of a dependency whose absence has one known cause; empty for any other file.
inline std::string known_dependency_fix(const std::string& file) {
  if (pe_format::same_name_ignoring_case(file, "zlibwapi.dll")) {
    return "zlibwapi.dll is zlib for Windows, which cuDNN 8.3 to 8.9 need and do not ship: put the x64 zlibwapi.dll "
           "into the folder of the cuDNN DLLs (NVIDIA's cuDNN installation guide, \"Installing Zlib\")";
  }
  return {};
}

// "12.0 - 12.9 and 13.0": the CUDA releases a support matrix row lists.
inline std::string ranges_text(const cudnn_support_row& row) {
  std::string text;
  for (const cuda_range& r : row.cuda) {
    if (!r.from) continue;
    std::string one = std::to_string(r.from / 100) + "." + std::to_string(r.from % 100);
    if (r.to != r.from) one += " - " + std::to_string(r.to / 100) + "." + std::to_string(r.to % 100);
    text += (text.empty() ? "" : " and ") + one;
  }
  return text;
}

// An import of cuDNN `release`'s DLLs in `dir` that Windows does not find. `zlib`: it is
// zlibwapi.dll, whose absence ends the process; `cuda_major`: the CUDA whose toolkit has it, or 0.
inline machine::problem cudnn_import_missing(const std::string& release, const std::string& dir,
                                             const machine::resolved_import& i, bool zlib, int cuda_major) {
  std::string fix = known_dependency_fix(i.name);
  return warning(
      "cudnn_import_missing", "cuDNN " + release + " in " + dir + " needs " + i.name + ", which is not found",
      join_path(dir, i.name),
      i.needed_by + " import" + (i.needed_by.find(',') == std::string::npos ? "s" : "") +
          " it, and Windows looks for it in: " + joined(i.searched) +
          ". A program that loads this cuDNN fails when cuDNN loads those files" +
          (zlib ? ": \"Could not locate zlibwapi.dll. Please make sure it is in your library path!\", and the "
                  "process ends"
                : " (error 126)"),
      !fix.empty() ? fix
      : cuda_major ? "put the bin folder of a CUDA " + std::to_string(cuda_major) + " toolkit (it has " + i.name +
                         ") on PATH, or copy " + i.name + " from there into " + dir
                   : "put " + i.name + " into " + dir + ", or its folder on PATH");
}

// An import library (lib\x64\cudnn.lib) that links to `links_to` (cudnn64_8.dll), beside a cuDNN
// DLL of another major (`library`).
inline machine::problem cudnn_import_library_mismatch(const std::string& import_library, int import_major,
                                                      const std::string& links_to, const std::string& library) {
  return warning("cudnn_import_library_mismatch",
                 file_name_of(import_library) + " in " + parent_dir(import_library) + " links to " + links_to +
                     ", but the cuDNN DLL beside it is " + file_name_of(library),
                 import_library,
                 "a program built here links cuDNN " + std::to_string(import_major) +
                     " and, when it starts, looks for " + links_to +
                     ", which this folder does not have: the two are of "
                     "different archives",
                 "copy the lib and bin folders of one cuDNN archive together");
}

// `where` has cuDNN's header and no cuDNN library.
inline machine::problem cudnn_without_library(const std::string& where, const machine::cudnn_install& c) {
  return warning(
      "cudnn_incomplete",
      where + " has cuDNN's header (" + file_name_of(c.header) + ", " + c.header_version + ") but no cuDNN library",
      c.header, "a program builds against it and then fails to link (-lcudnn) or to find cuDNN when it runs",
      "copy the library folder of the same cuDNN archive too, or remove its headers");
}

inline std::string cudnn_without_headers(const std::string& where) {
  return where + " has cuDNN's library but not its headers: programs can load it, not build against it";
}

// The header says one release, the library (`release`) another.
inline machine::problem cudnn_headers_mismatch(const std::string& where, const machine::cudnn_install& c,
                                               const std::string& release) {
  return warning("cudnn_headers_mismatch",
                 "cuDNN's header and library in " + where + " are of different releases: " + file_name_of(c.header) +
                     " says " + c.header_version + ", " + file_name_of(c.library) + " is " + release,
                 c.header,
                 "a program built here compiles against cuDNN " + c.header_version + "'s declarations and loads the " +
                     release + " library: functions its headers declare can be missing there, and cudnnGetVersion() (" +
                     release +
                     ") disagrees with the CUDNN_VERSION it was compiled with, which frameworks and cushim check",
                 "copy the include and library folders of one cuDNN archive together (both " + c.header_version +
                     ", or both " + release + ")");
}

// `releases`: "libcudnn.so.9 9.1.0", one per file that says.
inline machine::problem cudnn_mixed_releases(const std::string& folder, const std::vector<std::string>& releases) {
  return warning("cudnn_mixed_releases",
                 "cuDNN's files in " + folder + " are of more than one release: " + joined(releases), folder,
                 "cuDNN loads its sub-libraries by name and requires its own release of each: "
                 "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (cuDNN 9), or a failure at the first call (cuDNN 8)",
                 "remove every cudnn file from " + folder + " and copy in those of one archive");
}

// `release`: empty when the files do not say.
inline machine::problem cudnn_sublibrary_missing(const std::string& folder, const std::string& file,
                                                 const std::string& release) {
  return warning(
      "cudnn_sublibrary_missing", "cuDNN in " + folder + " has no " + file, join_path(folder, file),
      "cuDNN loads it by name; without it the calls that need it fail "
      "(CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED; cuDNN 8 can end the process)",
      "copy the whole library folder of the cuDNN " + (release.empty() ? std::string() : release + " ") + "archive");
}

// A cuDNN built for another CUDA major than the `cuda` (of major `major`) it sits with.
inline machine::problem cudnn_other_cuda(const std::string& release, const std::string& where, const std::string& cuda,
                                         int major, const machine::cudnn_install& c) {
  return warning(
      "cudnn_other_cuda",
      "the cuDNN " + release + " in " + where + " (CUDA " + cuda + ") was built for CUDA " +
          std::to_string(c.built_for_cuda_major),
      c.library,
      c.built_for_source + ": it needs CUDA " + std::to_string(c.built_for_cuda_major) + "'s libraries, which a CUDA " +
          std::to_string(major) + " toolkit does not have, so programs built with this toolkit cannot use it",
      "install the cuDNN archive built for CUDA " + std::to_string(major) + " (cudnn-...-cuda" + std::to_string(major) +
          "-archive) in its place, or keep each cuDNN in a folder of its own beside the CUDA it was built for");
}

// A CUDA of a major the support matrix lists, of a minor it does not: it runs all the same.
inline std::string cudnn_validated_with(const std::string& release, const cudnn_support_row& row,
                                        const std::string& cuda) {
  return "cuDNN " + release + " was validated with CUDA " + ranges_text(row) + " (" + row.source +
         "); it runs on CUDA " + leading_parts(cuda, 2) + " through minor version compatibility (" +
         source_cuda_compatibility + ")";
}

inline machine::problem cudnn_unsupported_cuda(const std::string& release, const std::string& cuda,
                                               const std::string& where, const std::string& library,
                                               const cudnn_support_row& row) {
  return warning(
      "cudnn_unsupported_cuda", "cuDNN " + release + " does not support CUDA " + cuda + " (" + where + ")", library,
      "cuDNN " + std::string(row.release) + "'s support matrix lists CUDA " + ranges_text(row) + " (" + row.source +
          ")",
      "use a cuDNN release whose support matrix lists CUDA " + leading_parts(cuda, 2) + ", or a CUDA it lists");
}

inline machine::problem cudnn_unsupported_gpu(const std::string& release, int cc, const std::string& library,
                                              const cudnn_support_row& row) {
  return warning("cudnn_unsupported_gpu",
                 "cuDNN " + release + " does not support the GPU of compute capability " + sm_text(cc), library,
                 "cuDNN " + std::string(row.release) + "'s support matrix covers SM " + sm_text(row.sm_min) +
                     (row.sm_max ? " - " + sm_text(row.sm_max) : std::string(" and later")) + " (" + row.source +
                     "): cudnnCreate returns CUDNN_STATUS_ARCH_MISMATCH",
                 "use a cuDNN release whose support matrix includes SM " + sm_text(cc));
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
