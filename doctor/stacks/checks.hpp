// What is wrong with what discovery found, checked against NVIDIA's compatibility data
// (compatibility.hpp) and against the driver and GPUs the program found: a cuDNN copied into a
// toolkit (headers against library, mixed releases, another CUDA major, the support matrix,
// known-bad releases), a toolkit or framework built for a newer CUDA than the driver or for
// newer GPUs than the machine's, a CPU or ROCm build, the wheels a framework pins, the variables
// and PATH selecting different toolkits, and a python on PATH without the CUDA framework.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/compatibility.hpp>
#include "../machine/context.hpp"
#include "../machine/frameworks.hpp"
#include "../machine/layout.hpp"
#include "../machine/text_values.hpp"
#include "../words/compatibility.hpp"
#include "../words/cudnn.hpp"
#include "../words/frameworks.hpp"
#include "../words/toolkits.hpp"
#include "framework_loads.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

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
  if (built / 100 > supported / 100) {
    const char* source = nullptr;
    const char* minimum = minimum_driver_of(built / 100, &source);
    problems.push_back(
        words::driver_too_old(o, version, subject, path, minimum, source, toolkit_driver_of(version), builds_fix));
  } else if (built > supported) {
    notes.push_back(words::minor_version_compatibility(o, version, subject));
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
    problems.push_back(words::gpu_too_old(cc, *floor, gpu_floor_for(major - 1), subject, version, path));
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

inline const known_bad_row* known_bad(const std::string& package, const std::string& version) {
  for (const known_bad_row& row : known_bad_releases) {
    if (normalized_name(row.package) != normalized_name(package)) continue;
    std::size_t parts = std::count(row.version, row.version + std::char_traits<char>::length(row.version), '.') + 1;
    if (leading_parts(version, parts) == row.version) return &row;
  }
  return nullptr;
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
    problems.push_back(words::cudnn_import_missing(release, dir, i, zlib, cuda_major));
  }
  int major = platform::cudnn_major_of_main(file_name_of(c.library));
  if (c.import_library_major && major && c.import_library_major != major) {
    problems.push_back(words::cudnn_import_library_mismatch(
        c.import_library, c.import_library_major, platform::cudnn_main_file(c.import_library_major), c.library));
  }
}

// A cuDNN in a folder, against itself and against the CUDA it sits with (`cuda`: "12.4", or empty).
inline void check_cudnn(const machine::options& o, const machine::cudnn_install& c, const std::string& where,
                        const std::string& cuda, std::vector<machine::problem>& problems,
                        std::vector<std::string>& notes) {
  std::string release = leading_parts(c.library_version, 3);
  if (c.library.empty()) return problems.push_back(words::cudnn_without_library(where, c));
  if (c.header.empty()) notes.push_back(words::cudnn_without_headers(where));
  if (!c.header_version.empty() && !release.empty() && c.header_version != release) {
    problems.push_back(words::cudnn_headers_mismatch(where, c, release));
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
  if (mixed) problems.push_back(words::cudnn_mixed_releases(parent_dir(c.library), releases));
  for (const machine::cudnn_file& s : c.sublibraries) {
    if (s.path.empty()) problems.push_back(words::cudnn_sublibrary_missing(parent_dir(c.library), s.name, release));
  }
  int major = cuda_minor_key(cuda) / 100;
  bool other_cuda = c.built_for_cuda_major && major && c.built_for_cuda_major != major;
  check_cudnn_imports(c, release, other_cuda, problems);
  if (other_cuda) problems.push_back(words::cudnn_other_cuda(release, where, cuda, major, c));
  if (const known_bad_row* row = known_bad("cudnn", release)) {
    problems.push_back(words::known_bad_release(*row, "cuDNN " + release, c.library));
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
    notes.push_back(words::cudnn_validated_with(release, *row, cuda));
  } else if (key && !listed && !other_cuda) {
    problems.push_back(words::cudnn_unsupported_cuda(release, cuda, where, c.library, *row));
  }
  for (int cc : o.gpu_compute_capabilities) {
    if ((row->sm_min && cc < row->sm_min) || (row->sm_max && cc > row->sm_max)) {
      problems.push_back(words::cudnn_unsupported_gpu(release, cc, c.library, *row));
    }
  }
}

inline void check_toolkit(const machine::options& o, machine::toolkit& t) {
  for (const machine::cudnn_install& c : t.cudnn) check_cudnn(o, c, t.path, t.version, t.problems, t.notes);
  for (const machine::cudnn_install& c : t.build_cudnn) {
    check_cudnn(o, c, words::what_a_build_finds(t.path), t.version, t.problems, t.notes);
  }
  check_against_driver(o, t.version, words::toolkit_subject(), t.path, words::toolkit_for_driver_fix(), t.problems,
                       t.notes);
  check_gpu_floor(o, t.version, words::this_toolkit(), t.path, t.problems);
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
  const char* pairs[][2] = {{"CUDA_PATH", "nvcc on PATH"}, {"CUDA_HOME", "nvcc on PATH"}, {"CUDA_PATH", "CUDA_HOME"}};
  for (const auto& pair : pairs) {
    const machine::toolkit* a = selected(pair[0]);
    const machine::toolkit* b = selected(pair[1]);
    if (!a || !b || a == b) continue;
    bool nvcc = std::string(pair[1]) == "nvcc on PATH";
    f.problems.push_back(words::toolkit_selection_disagrees(pair[0], *a, pair[1], *b, nvcc));
  }
  for (const std::string& name : ctx.names_starting("CUDA_PATH_V")) {
    std::string expected = name.substr(11);
    std::replace(expected.begin(), expected.end(), '_', '.');
    for (const machine::toolkit& t : f.toolkits) {
      bool named = false;
      for (const std::string& by : t.found_by) named = named || by == name;
      if (!named || t.version.empty() || leading_parts(t.version, 2) == expected) continue;
      f.problems.push_back(words::variable_version_mismatch(name, t, expected));
    }
  }
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
    source = words::listed_architectures(fw.architectures);
  }
  std::size_t plus = fw.version.find('+');
  for (const wheel_architectures_row& row : wheel_architectures) {
    if (fw.name != row.framework || plus == std::string::npos || fw.version.substr(plus + 1) != row.cuda_tag) continue;
    for (int cc : row.sm) {
      if (cc) built.push_back(cc);
    }
    if (built.empty()) from = row.sm_min;
    source = words::wheel_architectures_text(row, built);
  }
  if (source.empty()) return;
  for (int cc : o.gpu_compute_capabilities) {
    bool runs = (from && cc >= from) || std::find(built.begin(), built.end(), cc) != built.end();
    if (runs) continue;
    fw.problems.push_back(words::gpu_not_built_for(fw, cc, source));
  }
}

// A framework against the machine: how it was built, what it pins, the driver and the GPUs.
inline void check_framework(const machine::options& o, const std::string& site, const found_framework& found,
                            const machine::environment& e, machine::framework& fw) {
  const framework_spec& spec = *found.spec;
  std::string file = spec.version_file ? native_path(site, spec.version_file) : fw.native_file;
  std::string install = words::install_text(o, spec.cuda_install);
  if (fw.build == "cpu" && spec.cpu_build_is_usual) {
    fw.notes.push_back(words::built_without_cuda(fw, spec.cuda_install));
  } else if (fw.build == "cpu") {
    fw.problems.push_back(words::cpu_only_build(fw, file, spec.version_file, spec.cuda_key, install));
  } else if (fw.build == "rocm" && o.driver_found) {
    fw.problems.push_back(words::rocm_build(fw, file, install));
  }
  const char* const* native = platform::windows_names ? spec.windows_native : spec.linux_native;
  if (fw.build == "cuda" && fw.native_file.empty() && native[0]) {
    fw.problems.push_back(words::framework_files_missing(fw, native_path(site, native[0])));
  }
  for (const machine::wheel& w : e.nvidia_wheels) {
    std::string pinned = pinned_requirement(found.meta, w.name);
    if (!pinned.empty() && pinned != w.version) fw.problems.push_back(words::required_wheel_mismatch(fw, w, pinned));
  }
  if (fw.build == "cuda") {
    check_against_driver(o, fw.cuda, words::framework_subject(fw), fw.native_file, install, fw.problems, fw.notes);
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
    e.problems.push_back(words::known_bad_release(*row, w.name + " " + w.version, w.path));
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
      f.problems.push_back(words::ide_wrong_interpreter(i, *started, names, e, python));
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
            fw.notes.push_back(words::unused_toolkit_cudnn(fw, l, c, t.path));
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
      f.problems.push_back(words::wrong_interpreter(c, *started, has, names, e, python));
      break;
    }
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
