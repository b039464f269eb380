// What is wrong with what discovery found, checked against NVIDIA's compatibility data
// (compatibility.hpp) and against the driver and GPUs the program found: a cuDNN copied into a
// toolkit (headers against library, mixed releases, another CUDA major, the support matrix,
// known-bad releases), a toolkit or framework built for a newer CUDA than the driver or for
// newer GPUs than the machine's, a CPU or ROCm build, the wheels a framework pins, the variables
// and PATH selecting different toolkits, and a python on PATH without the CUDA framework.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/compatibility.hpp>
#include "../machine/context.hpp"
#include "../machine/frameworks.hpp"
#include "../machine/layout.hpp"
#include "../machine/text_values.hpp"
#include "framework_loads.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

inline std::string cuda_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

inline std::string sm_text(int cc) { return std::to_string(cc / 10) + "." + std::to_string(cc % 10); }

// The minimum driver of a CUDA major on this platform ("525.60.13"); null where the data has none.
inline const char* minimum_driver_of(int cuda_major, const char** source = nullptr) {
  const minimum_driver_row* row = minimum_driver_for(cuda_major);
  if (row && source) *source = row->source;
  return !row ? nullptr : platform::windows_names ? row->windows_driver : row->linux_driver;
}

// "550.54.14", the driver a toolkit release ships with, where the data has it.
inline const char* toolkit_driver_of(const std::string& version) {
  for (const toolkit_driver_row& row : toolkit_drivers) {
    const char* driver = platform::windows_names ? row.windows_driver : row.linux_driver;
    if (driver && leading_parts(row.toolkit, 2) == leading_parts(version, 2)) return driver;
  }
  return nullptr;
}

// The driver against something built for CUDA `version` ("12.4"): a problem for a newer major, a
// note for a newer minor of the same major (minor version compatibility).
inline void check_against_driver(const machine::options& o, const std::string& version, const std::string& subject,
                                 const std::string& path, const std::string& builds_fix,
                                 std::vector<machine::problem>& problems, std::vector<std::string>& notes) {
  if (!o.driver_found || o.driver_cuda_version <= 0 || !cuda_minor_key(version)) return;
  int built = cuda_minor_key(version),
      supported = o.driver_cuda_version / 1000 * 100 + o.driver_cuda_version % 1000 / 10;
  std::string driver = "the NVIDIA driver" + (o.driver_version.empty() ? "" : " (" + o.driver_version + ")");
  if (built / 100 > supported / 100) {
    const char* source = nullptr;
    const char* minimum = minimum_driver_of(built / 100, &source);
    const char* own = toolkit_driver_of(version);
    std::string major = std::to_string(built / 100);
    problems.push_back(
        {"driver_too_old",
         driver + " supports CUDA up to " + cuda_text(o.driver_cuda_version) + ", older than the CUDA " + version +
             " " + subject,
         path,
         "its CUDA calls fail with cudaErrorInsufficientDriver (35, \"CUDA driver version is insufficient for CUDA "
         "runtime version\")" +
             (minimum ? std::string(": CUDA ") + major + ".x needs driver " + minimum + " or newer (" + source + ")"
                      : std::string()),
         "update the NVIDIA driver" + (minimum ? std::string(" to ") + minimum + " or newer" : std::string()) +
             (own ? std::string(" (") + own + " or newer runs everything in CUDA " + leading_parts(version, 2) +
                        ", PTX JIT included)"
                  : std::string()) +
             "; or " + builds_fix});
  } else if (built > supported) {
    notes.push_back(driver + " supports CUDA up to " + cuda_text(o.driver_cuda_version) + ", older than the CUDA " +
                    version + " " + subject + ": it runs through minor version compatibility, but PTX built for " +
                    version + " cannot be compiled by that driver (cudaErrorUnsupportedPtxVersion)");
  }
}

// The GPUs against the oldest architecture a CUDA major supports.
inline void check_gpu_floor(const machine::options& o, const std::string& version, const std::string& subject,
                            const std::string& path, std::vector<machine::problem>& problems) {
  int major = cuda_minor_key(version) / 100;
  const gpu_floor_row* floor = gpu_floor_for(major);
  if (!floor) return;
  for (int cc : o.gpu_compute_capabilities) {
    if (cc >= floor->minimum_sm) continue;
    const gpu_floor_row* before = gpu_floor_for(major - 1);
    problems.push_back(
        {"gpu_too_old",
         "the GPU of compute capability " + sm_text(cc) + " is older than CUDA " + std::to_string(major) +
             " supports (SM " + sm_text(floor->minimum_sm) + " and later), and " + subject + " is for CUDA " + version,
         path,
         "CUDA " + std::to_string(major) + ".0 dropped " + floor->dropped + " (" + floor->source +
             "): nothing built with it runs on that GPU (\"no kernel image is available for execution on "
             "the device\")",
         before && cc >= before->minimum_sm
             ? "use a CUDA " + std::to_string(major - 1) + ".x build for this GPU (CUDA " + std::to_string(major - 1) +
                   " supports SM " + sm_text(before->minimum_sm) + " and later)"
             : "use a CUDA release whose support includes SM " + sm_text(cc)});
  }
}

// cuDNN's support matrix row for a release: its own major.minor, from the row's patch on.
inline const cudnn_support_row* support_row(const std::string& release) {
  std::vector<int> v;
  if (!version_numbers(release, v) || v.size() < 3) return nullptr;
  for (const cudnn_support_row& row : cudnn_support) {
    if (row.major == v[0] && row.minor == v[1] && v[2] >= row.patch) return &row;
  }
  return nullptr;
}

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

inline const known_bad_row* known_bad(const std::string& package, const std::string& version) {
  for (const known_bad_row& row : known_bad_releases) {
    if (normalized_name(row.package) != normalized_name(package)) continue;
    std::size_t parts = std::count(row.version, row.version + std::char_traits<char>::length(row.version), '.') + 1;
    if (leading_parts(version, parts) == row.version) return &row;
  }
  return nullptr;
}

inline machine::problem known_bad_problem(const known_bad_row& row, const std::string& name, const std::string& path) {
  return {"known_bad_release", name + " is a known-bad release", path, std::string(row.why) + " (" + row.source + ")",
          row.fix};
}

// What a cuDNN's DLLs import and Windows would not find (cudnn_imports.hpp), and an import library
// that links to another cuDNN major than the DLLs beside it.
// An import of another CUDA's library is cudnn_other_cuda's to tell (`other_cuda`).
inline void check_cudnn_imports(const machine::cudnn_install& c, const std::string& release, bool other_cuda,
                                std::vector<machine::problem>& problems) {
  std::string dir = parent_dir(c.library);
  for (const machine::resolved_import& i : c.imports) {
    int cuda_major = platform::cuda_major_named_by(i.name);
    if (!i.path.empty() || (cuda_major && other_cuda)) continue;
    bool zlib = pe_format::same_name_ignoring_case(i.name, "zlibwapi.dll");
    std::string advice = advice_for(i.name);
    problems.push_back(
        {"cudnn_import_missing", "cuDNN " + release + " in " + dir + " needs " + i.name + ", which is not found",
         join_path(dir, i.name),
         i.needed_by + " import" + (i.needed_by.find(',') == std::string::npos ? "s" : "") +
             " it, and Windows looks for it in: " + joined(i.searched) +
             ". A program that loads this cuDNN fails when cuDNN loads those files" +
             (zlib ? ": \"Could not locate zlibwapi.dll. Please make sure it is in your library path!\", and the "
                     "process ends"
                   : " (error 126)"),
         !advice.empty() ? advice
         : cuda_major    ? "put the bin folder of a CUDA " + std::to_string(cuda_major) + " toolkit (it has " + i.name +
                            ") on PATH, or copy " + i.name + " from there into " + dir
                      : "put " + i.name + " into " + dir + ", or its folder on PATH"});
  }
  int major = platform::cudnn_major_of_main(file_name_of(c.library));
  if (c.import_library_major && major && c.import_library_major != major) {
    problems.push_back({"cudnn_import_library_mismatch",
                        file_name_of(c.import_library) + " in " + parent_dir(c.import_library) + " links to " +
                            platform::cudnn_main_file(c.import_library_major) + ", but the cuDNN DLL beside it is " +
                            file_name_of(c.library),
                        c.import_library,
                        "a program built here links cuDNN " + std::to_string(c.import_library_major) +
                            " and, when it starts, looks for " + platform::cudnn_main_file(c.import_library_major) +
                            ", which this folder does not have: the two are of "
                            "different archives",
                        "copy the lib and bin folders of one cuDNN archive together"});
  }
}

// A cuDNN in a folder, against itself and against the CUDA it sits with (`cuda`: "12.4", or empty).
inline void check_cudnn(const machine::options& o, const machine::cudnn_install& c, const std::string& where,
                        const std::string& cuda, std::vector<machine::problem>& problems,
                        std::vector<std::string>& notes) {
  std::string release = leading_parts(c.library_version, 3);
  if (c.library.empty()) {
    problems.push_back(
        {"cudnn_incomplete",
         where + " has cuDNN's header (" + file_name_of(c.header) + ", " + c.header_version + ") but no cuDNN library",
         c.header, "a program builds against it and then fails to link (-lcudnn) or to find cuDNN when it runs",
         "copy the library folder of the same cuDNN archive too, or remove its headers"});
    return;
  }
  if (c.header.empty())
    notes.push_back(where + " has cuDNN's library but not its headers: programs can load it, not build against it");
  if (!c.header_version.empty() && !release.empty() && c.header_version != release) {
    problems.push_back(
        {"cudnn_headers_mismatch",
         "cuDNN's header and library in " + where + " are of different releases: " + file_name_of(c.header) + " says " +
             c.header_version + ", " + file_name_of(c.library) + " is " + release,
         c.header,
         "a program built here compiles against cuDNN " + c.header_version + "'s declarations and loads the " +
             release + " library: functions its headers declare can be missing there, and cudnnGetVersion() (" +
             release + ") disagrees with the CUDNN_VERSION it was compiled with, which frameworks and cushim check",
         "copy the include and library folders of one cuDNN archive together (both " + c.header_version + ", or both " +
             release + ")"});
  }
  std::vector<std::string> releases;
  bool main_says = c.version_source.compare(0, file_name_of(c.library).size() + 1, file_name_of(c.library) + ":") == 0;
  if (!release.empty() && main_says) releases.push_back(file_name_of(c.library) + " " + release);
  bool mixed = false;
  for (const machine::cudnn_file& s : c.sublibraries) {
    if (s.path.empty() || s.version.empty()) continue;
    std::string r = leading_parts(s.version, 3);
    if (!release.empty() && r != release) mixed = true;
    releases.push_back(s.name + " " + r);
  }
  if (mixed) {
    problems.push_back(
        {"cudnn_mixed_releases",
         "cuDNN's files in " + parent_dir(c.library) + " are of more than one release: " + joined(releases),
         parent_dir(c.library),
         "cuDNN loads its sub-libraries by name and requires its own release of each: "
         "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (cuDNN 9), or a failure at the first call (cuDNN 8)",
         "remove every cudnn file from " + parent_dir(c.library) + " and copy in those of one archive"});
  }
  for (const machine::cudnn_file& s : c.sublibraries) {
    if (!s.path.empty()) continue;
    problems.push_back({"cudnn_sublibrary_missing", "cuDNN in " + parent_dir(c.library) + " has no " + s.name,
                        join_path(parent_dir(c.library), s.name),
                        "cuDNN loads it by name; without it the calls that need it fail "
                        "(CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED; cuDNN 8 can end the process)",
                        "copy the whole library folder of the cuDNN " +
                            (release.empty() ? std::string() : release + " ") + "archive"});
  }
  int major = cuda_minor_key(cuda) / 100;
  bool other_cuda = c.built_for_cuda_major && major && c.built_for_cuda_major != major;
  check_cudnn_imports(c, release, other_cuda, problems);
  if (other_cuda) {
    problems.push_back(
        {"cudnn_other_cuda",
         "the cuDNN " + release + " in " + where + " (CUDA " + cuda + ") was built for CUDA " +
             std::to_string(c.built_for_cuda_major),
         c.library,
         c.built_for_source + ": it needs CUDA " + std::to_string(c.built_for_cuda_major) +
             "'s libraries, which a CUDA " + std::to_string(major) +
             " toolkit does not have, so programs built with this toolkit cannot use it",
         "install the cuDNN archive built for CUDA " + std::to_string(major) + " (cudnn-...-cuda" +
             std::to_string(major) +
             "-archive) in its place, or keep each cuDNN in a folder of its own beside the CUDA it was built for"});
  }
  if (const known_bad_row* row = known_bad("cudnn", release)) {
    problems.push_back(known_bad_problem(*row, "cuDNN " + release, c.library));
  }
  const cudnn_support_row* row = support_row(release);
  if (!row) return;
  int key = cuda_minor_key(cuda);
  bool listed = false, same_major = false;
  for (const cuda_range& r : row->cuda) {
    listed = listed || (r.from && key >= r.from && key <= r.to);
    same_major = same_major || (r.from && r.from / 100 == key / 100);
  }
  if (key && !listed && same_major && !other_cuda) {  // minor version compatibility: a note
    notes.push_back("cuDNN " + release + " was validated with CUDA " + ranges_text(*row) + " (" + row->source +
                    "); it runs on CUDA " + leading_parts(cuda, 2) + " through minor version compatibility (" +
                    source_cuda_compatibility + ")");
  } else if (key && !listed && !other_cuda) {
    problems.push_back(
        {"cudnn_unsupported_cuda", "cuDNN " + release + " does not support CUDA " + cuda + " (" + where + ")",
         c.library,
         "cuDNN " + std::string(row->release) + "'s support matrix lists CUDA " + ranges_text(*row) + " (" +
             row->source + ")",
         "use a cuDNN release whose support matrix lists CUDA " + leading_parts(cuda, 2) + ", or a CUDA it lists"});
  }
  for (int cc : o.gpu_compute_capabilities) {
    if ((row->sm_min && cc < row->sm_min) || (row->sm_max && cc > row->sm_max)) {
      problems.push_back({"cudnn_unsupported_gpu",
                          "cuDNN " + release + " does not support the GPU of compute capability " + sm_text(cc),
                          c.library,
                          "cuDNN " + std::string(row->release) + "'s support matrix covers SM " + sm_text(row->sm_min) +
                              (row->sm_max ? " - " + sm_text(row->sm_max) : std::string(" and later")) + " (" +
                              row->source + "): cudnnCreate returns CUDNN_STATUS_ARCH_MISMATCH",
                          "use a cuDNN release whose support matrix includes SM " + sm_text(cc)});
    }
  }
}

inline void check_toolkit(const machine::options& o, machine::toolkit& t) {
  for (const machine::cudnn_install& c : t.cudnn) check_cudnn(o, c, t.path, t.version, t.problems, t.notes);
  for (const machine::cudnn_install& c : t.build_cudnn) {
    check_cudnn(o, c, "what a build with " + t.path + " finds", t.version, t.problems, t.notes);
  }
  check_against_driver(o, t.version, "toolkit", t.path, "use a toolkit for the CUDA the driver supports", t.problems,
                       t.notes);
  check_gpu_floor(o, t.version, "this toolkit", t.path, t.problems);
}

// CUDA_PATH, CUDA_HOME and the first nvcc on PATH should lead to one toolkit; CUDA_PATH_V<x>_<y>
// to a toolkit of x.y.
inline void check_selection(const context& ctx, machine::findings& f) {
  auto selected = [&](const char* by) -> const machine::toolkit* {
    for (const machine::toolkit& t : f.toolkits) {
      for (const std::string& s : t.selected_by) {
        if (s == by) return &t;
      }
    }
    return nullptr;
  };
  auto described = [](const machine::toolkit& t) {
    return t.path + (t.version.empty() ? std::string() : " (CUDA " + t.version + ")");
  };
  const char* pairs[][2] = {{"CUDA_PATH", "nvcc on PATH"}, {"CUDA_HOME", "nvcc on PATH"}, {"CUDA_PATH", "CUDA_HOME"}};
  for (const auto& pair : pairs) {
    const machine::toolkit* a = selected(pair[0]);
    const machine::toolkit* b = selected(pair[1]);
    if (!a || !b || a == b) continue;
    bool nvcc = std::string(pair[1]) == "nvcc on PATH";
    f.problems.push_back(
        {"toolkit_selection_disagrees",
         std::string(pair[0]) + " selects " + described(*a) + ", but " +
             (nvcc ? "the first nvcc on PATH is " + b->nvcc : std::string(pair[1]) + " selects " + described(*b)) +
             (nvcc ? (b->version.empty() ? std::string() : " (CUDA " + b->version + ")") : std::string()),
         a->path,
         "build tools disagree: CMake's FindCUDAToolkit and setup.py builds take the toolkit from " +
             std::string(pair[0]) + ", " +
             (nvcc ? "a build that runs nvcc from PATH compiles with the other one"
                   : "others take it from " + std::string(pair[1])) +
             ": a program then compiles with one CUDA's headers and links or loads the other's libraries",
         nvcc ? "put " + join_path(a->path, "bin") + " first on PATH, or set " + pair[0] + " to " + b->path
              : "set both to the toolkit you build with"});
  }
  for (const std::string& name : ctx.names_starting("CUDA_PATH_V")) {
    std::string expected = name.substr(11);
    std::replace(expected.begin(), expected.end(), '_', '.');
    for (const machine::toolkit& t : f.toolkits) {
      bool named = false;
      for (const std::string& by : t.found_by) named = named || by == name;
      if (!named || t.version.empty() || leading_parts(t.version, 2) == expected) continue;
      f.problems.push_back({"variable_version_mismatch",
                            name + " names " + t.path + ", a CUDA " + t.version + " toolkit, not CUDA " + expected,
                            t.path,
                            "tools take " + name + " for CUDA " + expected +
                                "'s files: torch's loader adds its bin folder for a build for CUDA " + expected +
                                ", NVIDIA's MSBuild rules compile with it",
                            "set " + name + " to the CUDA " + expected + " toolkit, or remove it"});
    }
  }
}

// How to install a framework's CUDA build, for the driver of this machine where it is known.
inline std::string install_text(const machine::options& o, const framework_spec& spec) {
  std::string text = spec.cuda_install;
  std::size_t at = text.find("{cuda}");
  if (at == std::string::npos) return text;
  text.replace(at, 6, "XY");
  if (o.driver_found && o.driver_cuda_version > 0) {
    return text + ", for a CUDA X.Y up to " + cuda_text(o.driver_cuda_version) + " (what this driver supports)";
  }
  return text + ", for a CUDA X.Y the driver supports (nvidia-smi shows which)";
}

// The GPUs against the architectures a framework is built for, where its files or the data say.
inline void check_architectures(const machine::options& o, machine::framework& fw) {
  std::vector<int> built;
  int from = 0;
  std::string source;
  for (const std::string& a : fw.architectures) {  // "sm_80", "compute_90": code for these, PTX for newer
    std::size_t underscore = a.find('_');
    if (underscore == std::string::npos) continue;
    int cc = std::atoi(a.c_str() + underscore + 1);
    if (a.compare(0, 8, "compute_") == 0) {
      from = from ? std::min(from, cc) : cc;
    } else {
      built.push_back(cc);
    }
    source = "its build information lists " + joined(fw.architectures);
  }
  std::size_t plus = fw.version.find('+');
  for (const wheel_architectures_row& row : wheel_architectures) {
    if (fw.name != row.framework || plus == std::string::npos || fw.version.substr(plus + 1) != row.cuda_tag) continue;
    for (int cc : row.sm) {
      if (cc) built.push_back(cc);
    }
    if (built.empty()) from = row.sm_min;
    source = std::string("its wheels for ") + row.cuda_tag + " are built for " +
             (built.empty() ? "SM " + sm_text(row.sm_min) + " and later" : [&] {
               std::vector<std::string> names;
               for (int cc : built) names.push_back(sm_text(cc));
               return "SM " + joined(names);
             }()) +
             " (" + row.source + ")";
  }
  if (source.empty()) return;
  for (int cc : o.gpu_compute_capabilities) {
    bool runs = (from && cc >= from) || std::find(built.begin(), built.end(), cc) != built.end();
    if (runs) continue;
    fw.problems.push_back({"gpu_not_built_for",
                           fw.name + " " + fw.version + " has no code for the GPU of compute capability " + sm_text(cc),
                           fw.native_file,
                           source + ": on this GPU it fails with \"no kernel image is available for execution on the "
                                    "device\"",
                           "install a build that includes SM " + sm_text(cc) + " (one for an older CUDA), or build " +
                               fw.name + " from source for it"});
  }
}

// A framework against the machine: how it was built, what it pins, the driver and the GPUs.
inline void check_framework(const machine::options& o, const std::string& site, const found_framework& found,
                            const machine::environment& e, machine::framework& fw) {
  const framework_spec& spec = *found.spec;
  std::string file = spec.version_file ? native_path(site, spec.version_file) : fw.native_file;
  if (fw.build == "cpu" && spec.cpu_build_is_usual) {
    fw.notes.push_back(fw.name + " " + fw.version +
                       " is built without CUDA (its imports reach none of CUDA's "
                       "libraries): it uses no GPU; for one that does, " +
                       spec.cuda_install);
  } else if (fw.build == "cpu") {
    fw.problems.push_back(
        {"cpu_only_build", fw.name + " " + fw.version + " is a CPU-only build", file,
         std::string(spec.version_file ? spec.version_file : "its files") + " says it was built without CUDA" +
             (spec.cuda_key ? std::string(" (") + spec.cuda_key + (fw.cuda.empty() ? " is None" : " = " + fw.cuda) + ")"
                            : std::string()) +
             ": it never uses a GPU, whatever the driver and the toolkits (" + fw.name +
             " reports no CUDA device; a package manager that took the default index often installs this build)",
         install_text(o, spec)});
  } else if (fw.build == "rocm" && o.driver_found) {
    fw.problems.push_back({"rocm_build",
                           fw.name + " " + fw.version + " is a ROCm build (HIP " + fw.hip + "), for AMD GPUs", file,
                           "it uses AMD's HIP runtime, not CUDA: it sees no NVIDIA GPU", install_text(o, spec)});
  }
  if (fw.build == "cuda" && fw.native_file.empty() &&
      (platform::windows_names ? spec.windows_native : spec.linux_native)[0]) {
    fw.problems.push_back({"framework_files_missing",
                           fw.name + " " + fw.version + " is a CUDA build but its CUDA library is missing",
                           native_path(site, (platform::windows_names ? spec.windows_native : spec.linux_native)[0]),
                           "its CUDA support cannot load: a partial install, or files removed by another package",
                           "pip install --force-reinstall " + fw.distribution + "==" + fw.version});
  }
  for (const machine::wheel& w : e.nvidia_wheels) {
    std::string pinned = pinned_requirement(found.meta, w.name);
    if (pinned.empty() || pinned == w.version) continue;
    fw.problems.push_back(
        {"required_wheel_mismatch",
         fw.name + " " + fw.version + " requires " + w.name + "==" + pinned + "; " + w.version + " is installed",
         w.path,
         "its METADATA pins that release: it was built and tested with it, and a cuDNN or cuBLAS of "
         "another release can refuse its calls or behave differently",
         "pip install " + w.name + "==" + pinned});
  }
  if (fw.build == "cuda") {
    check_against_driver(o, fw.cuda, "that " + fw.name + " " + fw.version + " was built for", fw.native_file,
                         install_text(o, spec), fw.problems, fw.notes);
    check_gpu_floor(o, fw.cuda, fw.name + " " + fw.version, fw.native_file, fw.problems);
    check_architectures(o, fw);
  }
}

inline void check_wheels(machine::environment& e) {
  for (const machine::wheel& w : e.nvidia_wheels) {
    const known_bad_row* row = known_bad(w.name, w.version);
    if (!row && normalized_name(w.name).compare(0, 13, "nvidia_cudnn_") == 0) row = known_bad("cudnn", w.version);
    if (!row) continue;
    if (row->linux_file) {
      if (platform::windows_names) continue;  // the fact is about the Linux wheel
      bool has_file = false;
      for (const std::string& site : e.site_packages) {
        for (const char* dir : {"nvidia/cudnn/lib", "nvidia/cu13/lib"}) {
          has_file = has_file || platform::check_path(join_path(join_path(site, dir), row->linux_file)).kind ==
                                     platform::path_kind::file;
        }
      }
      if (has_file) continue;
    }
    e.problems.push_back(known_bad_problem(*row, w.name + " " + w.version, w.path));
  }
}

inline std::vector<std::string> cuda_frameworks(const machine::environment& e) {
  std::vector<std::string> names;
  for (const machine::framework& fw : e.frameworks) {
    if (fw.build == "cuda") names.push_back(fw.name + " " + fw.version);
  }
  return names;
}

inline const machine::environment* environment_named(const machine::findings& f, const std::string& path) {
  for (const machine::environment& e : f.environments) {
    if (!path.empty() && e.path == path) return &e;
  }
  return nullptr;
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

// A CUDA build of a framework in some environment, while the interpreter an IDE runs a project
// with has none.
inline void check_ide_interpreters(machine::findings& f) {
  for (const machine::ide_interpreter& i : f.ide_interpreters) {
    const machine::environment* started = environment_named(f, i.environment);
    if (!started || !cuda_frameworks(*started).empty()) continue;
    for (const machine::environment& e : f.environments) {
      std::vector<std::string> names = cuda_frameworks(e);
      if (names.empty() || &e == started) continue;
      std::string python = e.python.empty() ? e.path : e.python;
      std::string chosen = i.name.empty() ? "VS Code's python.defaultInterpreterPath (" + i.settings + ")"
                                          : "PyCharm's project interpreter (" + i.settings + " names \"" + i.name +
                                                "\", and " + i.how + " gives its path)";
      f.problems.push_back(
          {"ide_wrong_interpreter",
           i.ide + " runs " + i.project + " with " + i.path + " (" + started->kind + " " + started->path +
               "), which has no CUDA framework; " + joined(names) + " is in " + e.path,
           i.settings,
           chosen + " runs the project's code, its console and its run configurations: importing the framework "
                    "fails there (No module named ...), whatever else the machine has",
           ide_choice_fix(i, python)});
      break;
    }
  }
}

// A framework that loads the cuDNN of its own folder while a toolkit has another copied in: the
// copy changes nothing for it (the article's reader copied cuDNN 8.5 into CUDA 11.8 for torch,
// whose torch\lib has its own).
inline void note_unused_toolkit_cudnn(machine::findings& f) {
  for (machine::environment& e : f.environments) {
    for (machine::framework& fw : e.frameworks) {
      if (fw.native_file.empty()) continue;
      for (const machine::library_load& l : fw.loads) {
        if (l.library != "cuDNN" || l.path.empty() || parent_dir(l.path) != parent_dir(fw.native_file)) continue;
        for (const machine::toolkit& t : f.toolkits) {
          for (const machine::cudnn_install& c : t.cudnn) {
            if (c.library.empty()) continue;
            fw.notes.push_back(fw.name + " uses the cuDNN " + leading_parts(l.version, 3) + " in its own folder " +
                               parent_dir(l.path) + ", not the cuDNN " + leading_parts(c.library_version, 3) +
                               " copied into " + t.path + ": that copy changes nothing for " + fw.name);
          }
        }
      }
    }
  }
}

// A CUDA build of a framework in some environment, while python on PATH starts one without.
inline void check_interpreter(machine::findings& f) {
  for (const machine::command_on_path& c : f.on_path) {
    if (c.environment.empty()) continue;
    const machine::environment* started = nullptr;
    for (const machine::environment& e : f.environments) {
      if (e.path == c.environment) started = &e;
    }
    if (!started || !cuda_frameworks(*started).empty()) continue;
    for (const machine::environment& e : f.environments) {
      std::vector<std::string> names = cuda_frameworks(e);
      if (names.empty() || &e == started) continue;
      std::string has;
      for (const machine::framework& fw : started->frameworks)
        has += (has.empty() ? "" : ", ") + fw.name + " " + fw.version;
      std::string python = e.python.empty() ? e.path : e.python;
      f.problems.push_back(
          {"wrong_interpreter",
           c.command + " on PATH starts " + c.path + " (" + started->kind + " " + started->path + "), which has " +
               (has.empty() ? "no CUDA framework" : "only " + has) + "; " + joined(names) + " is in " + e.path,
           c.path,
           "a bare " + c.command + " (a shell, a script's #!/usr/bin/env " + c.command +
               ", an IDE left at its default interpreter) runs without CUDA there: " +
               (has.empty() ? "importing the framework fails (No module named ...)" : "it reports no CUDA device"),
           "run " + python + " (or activate " + e.path + " first); in an IDE, choose " + python +
               " as the interpreter"});
      break;
    }
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
