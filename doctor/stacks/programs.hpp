// Programs built with cushim (issue 31, "Stacks" c): for each cuDNN and CUDA runtime release whose
// headers are on the machine, and the release this doctor was built with, the copy such a program
// would load in a plain environment. The candidates are cushim's own search (search_order.hpp, for
// that release's file and CUDA major); each is screened from its files as the loader would screen
// it (its format, its version against the headers'). Where the copies it meets cannot be used and a
// usable one is elsewhere on the machine, the fix names that copy and the setting that reaches it,
// and the package that owns the refused copy.
#pragma once

#include <cushim/detail/search/search_order.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "../machine/context.hpp"
#include "../machine/cudnn_files.hpp"
#include "../machine/frameworks.hpp"
#include "../machine/machine.hpp"
#include "../machine/text_values.hpp"
#include "framework_loads.hpp"
#include "../words/programs.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// Headers of one release, wherever they are.
struct header_release {
  const library_descriptor* d;
  std::string version;  // "9.19.0", "13.0"
  std::string header;   // the first file it was read from
  std::vector<std::string> from;
  int cuda_major = 0;  // a toolkit's headers build for that toolkit's CUDA; 0: the machine's
};

// "13.0" from CUDART_VERSION 13000; "9.19.0" from cudnn_version.h's three defines. Empty when the
// file does not say.
inline std::string header_release_of(const library_descriptor& d, const std::string& header) {
  text_file file = read_text(header);
  if (!file.ok()) return {};
  if (d.id == library::cudnn) {
    std::string major = define_value(file.text, "CUDNN_MAJOR");
    if (major.empty()) return {};
    return major + "." + define_value(file.text, "CUDNN_MINOR") + "." + define_value(file.text, "CUDNN_PATCHLEVEL");
  }
  int v = std::atoi(define_value(file.text, "CUDART_VERSION").c_str());
  return v >= 1000 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : std::string();
}

inline void add_header(std::vector<header_release>& found, const library_descriptor& d, const std::string& header,
                       const std::string& from, int cuda_major = 0) {
  if (platform::check_path(header).kind != platform::path_kind::file) return;
  std::string version = header_release_of(d, header);
  if (version.empty()) return;
  for (header_release& h : found) {
    if (h.d == &d && h.version == version) return add_unique(h.from, from);
  }
  found.push_back({&d, version, header, {from}, cuda_major});
}

// The folders programs are built against: the toolkits', the build variables', the system's, the
// environments' (conda's include/, the wheels' nvidia/<package>/include).
inline std::vector<header_release> header_releases(const context& ctx, const machine::findings& f) {
  const library_descriptor& cudnn = descriptor_of(library::cudnn);
  const library_descriptor& cudart = descriptor_of(library::cudart);
  std::vector<header_release> found;
  for (const machine::toolkit& t : f.toolkits) {
    int major = cuda_minor_key(t.version) / 100;
    for (const std::string& dir : platform::toolkit_header_dirs(t.path)) {
      add_header(found, cudart, join_path(dir, "cuda_runtime_api.h"), words::the_toolkit(t.path), major);
      add_header(found, cudnn, join_path(dir, "cudnn_version.h"), words::the_toolkit(t.path), major);
    }
  }
  for (const machine::cudnn_install& c : f.cudnn) {
    if (!c.header.empty()) add_header(found, cudnn, c.header, c.found_by);
  }
  for (const char* dir : {"/usr/include", "/usr/include/x86_64-linux-gnu"}) {
    add_header(found, cudnn, join_path(ctx.system_path(dir), "cudnn_version.h"), dir);
  }
  for (const machine::environment& e : f.environments) {
    add_header(found, cudnn, join_path(join_path(e.path, "include"), "cudnn_version.h"),
               words::the_environment(e.path));
    for (const std::string& site : e.site_packages) {
      std::string nvidia = join_path(site, "nvidia");
      for (const machine::wheel& w : e.nvidia_wheels) {
        if (parent_dir(w.path) != site || normalized_name(w.name).compare(0, 13, "nvidia_cudnn_") != 0) continue;
        add_header(found, cudnn, join_path(join_path(join_path(nvidia, "cudnn"), "include"), "cudnn_version.h"),
                   words::the_wheel(w, e.path));
      }
    }
  }
  return found;
}

// The CUDA major a cuDNN program would be built for: the toolkit the build tools select, else the
// newest toolkit, else this doctor's.
inline int program_cuda_major(const machine::findings& f) {
  int newest = 0;
  for (const machine::toolkit& t : f.toolkits) {
    int major = cuda_minor_key(t.version) / 100;
    if (!t.selected_by.empty() && major) return major;
    newest = std::max(newest, major);
  }
  return newest ? newest : compiled_cuda_major();
}

// The copy of the inventory a path is (links followed); null when it has none.
inline const machine::library_copy* copy_at(const machine::findings& f, const std::string& path) {
  platform::file_identity id = platform::identity_of(path);
  for (const machine::library_copy& c : f.copies) {
    if (c.path == path || (id.known() && platform::identity_of(c.path) == id)) return &c;
  }
  return nullptr;
}

// Whether a copy of `version` serves programs built with headers of `headers`: the loader's rule
// (version_check.hpp): the same major, and no older minor unless the library's older
// minors work.
inline bool serves(const library_descriptor& d, const std::string& version, const std::string& headers) {
  std::vector<int> got, want;
  if (!version_numbers(version + ".0", got) || !version_numbers(headers + ".0", want)) return false;
  return got[0] == want[0] && (got[1] >= want[1] || d.older_minor_works);
}

// "cuDNN 9.14.0", "the CUDA runtime 13.0": a release as its headers count it (a package's fourth
// number, the build, left out).
inline std::string named_release(const library_descriptor& d, const std::string& version) {
  return std::string(d.in_sentence) + " " + leading_parts(version, d.version_has_patch ? 3 : 2);
}

// The first import of a cuDNN at `path` (copied into a toolkit, on PATH, named by a variable) that
// Windows would not find (cudnn_imports.hpp); null when none is missing.
inline const machine::resolved_import* missing_import_of(const machine::findings& f, const std::string& path) {
  std::vector<const machine::cudnn_install*> installs;
  for (const machine::toolkit& t : f.toolkits) {
    for (const machine::cudnn_install& c : t.cudnn) installs.push_back(&c);
  }
  for (const machine::cudnn_install& c : f.cudnn) installs.push_back(&c);
  for (const machine::cudnn_install* c : installs) {
    if (c->library != path) continue;
    for (const machine::resolved_import& i : c->imports) {
      if (i.path.empty()) return &i;
    }
  }
  return nullptr;
}

// What a program built with `h` would do with the candidate at `path`: "" when it would load it,
// else why not. `version` receives what the files say of its release.
inline std::string screen_candidate(const machine::findings& f, const header_release& h, const std::string& path,
                                    std::string& version) {
  std::string why;
  if (platform::inspect_file(path, why) != outcome::loaded) return why;
  const machine::library_copy* copy = copy_at(f, path);
  version = copy ? copy->version : platform::version_in_file_name(path);
  if (version.empty()) return {};  // its files do not say: the loader would ask the library itself
  if (!serves(*h.d, version, h.version)) {
    std::vector<int> got, want;
    version_numbers(version + ".0", got), version_numbers(h.version + ".0", want);
    return got[0] != want[0] ? words::other_major_than(h.version) : words::older_than(h.version);
  }
  if (const machine::resolved_import* i = missing_import_of(f, path)) return words::import_not_found(*i);
  return {};
}

// The copies of the inventory that serve programs built with `h` (newest first).
inline std::vector<const machine::library_copy*> serving_copies(const machine::findings& f, const header_release& h,
                                                                int cuda_major) {
  std::vector<const machine::library_copy*> found;
  for (const machine::library_copy& c : f.copies) {
    if (c.key != h.d->key || c.library.find('(') != std::string::npos || c.version.empty()) continue;
    if (!serves(*h.d, c.version, h.version) || (c.cuda_major && cuda_major && c.cuda_major != cuda_major)) continue;
    found.push_back(&c);
  }
  std::stable_sort(found.begin(), found.end(), [](const machine::library_copy* a, const machine::library_copy* b) {
    return cuda_minor_key(a->version) > cuda_minor_key(b->version);
  });
  return found;
}

// A variable of this process's environment, as cushim's own search reads it.
inline std::string process_variable(const char* name) {
  const char* value = platform::get_environment(name);
  return value ? value : "";
}

inline machine::cushim_program examine_program(const machine::findings& f, const header_release& h, int cuda_major) {
  machine::cushim_program p;
  p.library = h.d->display_name;
  p.key = h.d->key;
  p.headers = h.header;
  p.headers_version = h.version;
  p.headers_from = h.from;
  p.this_program = leading_parts(h.version, 3) == version_text(*h.d, h.d->compiled_version);
  std::vector<int> parts;
  version_numbers(h.version + ".0", parts);
  if (h.d->id == library::cudart) cuda_major = parts[0];
  if (h.cuda_major) cuda_major = h.cuda_major;
  search_target target = target_for(*h.d, parts[0], cuda_major);
  std::vector<std::string> no_dirs;
  search_inputs in{&no_dirs, true, "", ""};
  std::string first_refused, first_refused_by;
  std::vector<platform::file_identity> met;  // one file reached by two rules is tried once, as by the loader
  std::vector<candidate> candidates = search_candidates(target, in);
  std::string override_value = h.d->override_variable ? process_variable(h.d->override_variable) : std::string();
  if (!override_value.empty()) {  // the override is authoritative: nothing else is tried (search_order.hpp)
    candidate_list list(target.file_name);
    if (platform::check_path(override_value).kind == platform::path_kind::file) {
      list.add_file(h.d->override_variable, override_value);
    } else {
      list.add_dir(h.d->override_variable, override_value);
    }
    candidates = list.take();
  }
  for (const candidate& c : candidates) {
    if (c.kind != entry_kind::absolute || platform::check_path(c.path).kind != platform::path_kind::file) continue;
    platform::file_identity id = platform::identity_of(c.path);
    if (std::find(met.begin(), met.end(), id) != met.end()) continue;
    met.push_back(id);
    std::string version;
    std::string why = screen_candidate(f, h, c.path, version);
    if (why.empty()) {
      p.loads = c.path, p.loads_version = version, p.found_by = rule_of(c);
      break;
    }
    if (first_refused.empty()) first_refused = c.path, first_refused_by = rule_of(c);
    p.refused.push_back(words::refused_copy(c.path, *h.d, version, why));
  }
  std::vector<const machine::library_copy*> usable = serving_copies(f, h, cuda_major);
  std::string setting = usable.empty()
                            ? std::string()
                            : words::search_path_to(*usable.front(), named_release(*h.d, usable.front()->version));
  if (!p.loads.empty()) {
    if (!p.refused.empty()) p.notes.push_back(words::passes_over(p.refused));
    return p;
  }
  std::string programs = words::programs_built_with(named_release(*h.d, h.version));
  if (!override_value.empty() && first_refused.empty()) {
    p.problems.push_back(words::cushim_program_override_fails(
        programs, *h.d, override_value, usable.empty() ? std::string() : usable.front()->path, target.file_name));
    return p;
  }
  if (first_refused.empty()) {
    if (!usable.empty()) {
      p.notes.push_back(words::find_none_but(programs, *h.d, parts[0], setting));
    } else {
      p.problems.push_back(
          words::cushim_program_no_library(programs, *h.d, parts[0], h.header, named_release(*h.d, h.version)));
    }
    return p;
  }
  const machine::library_copy* refused = copy_at(f, first_refused);
  std::string fix = words::or_else(setting, refused ? words::upgrade(*refused, h.version) : std::string());
  if (const machine::resolved_import* i = missing_import_of(f, first_refused)) {  // what it lacks, before all
    fix = words::or_else(words::provide_import(i->name, parent_dir(first_refused)), fix);
  }
  if (fix.empty()) fix = words::install_release(named_release(*h.d, h.version));
  p.problems.push_back(words::cushim_program_refuses(programs, *h.d, first_refused, first_refused_by, p.refused, fix));
  return p;
}

inline void examine_programs(const context& ctx, machine::findings& f) {
  if (!ctx.opts.use_process_environment) return;  // cushim's search reads this process's environment
  std::vector<header_release> releases = header_releases(ctx, f);
  for (const library_descriptor* d : {&descriptor_of(library::cudnn), &descriptor_of(library::cudart)}) {
    std::string own = version_text(*d, d->compiled_version);
    bool listed = false;
    for (const header_release& h : releases) listed = listed || (h.d == d && leading_parts(h.version, 3) == own);
    if (!listed) releases.push_back({d, own, words::own_headers(), {words::own_build()}});
  }
  int cuda_major = program_cuda_major(f);
  for (const header_release& h : releases) {
    machine::cushim_program p = examine_program(f, h, cuda_major);
    if (h.from.size() == 1 &&
        h.from.front() == words::own_build()) {  // headers of this doctor alone: no program here has them
      for (const machine::problem& problem : p.problems) p.notes.push_back(words::as_note(problem));
      p.problems.clear();
    }
    f.programs.push_back(std::move(p));
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
