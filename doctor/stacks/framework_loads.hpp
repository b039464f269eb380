// What the framework loaders (posix/ and windows/framework_loader.hpp) share: the walk of a
// library's imports with the platform's resolver, which files the nvidia-* wheels installed
// (their RECORD), a loaded file's version, the CUDA libraries a framework's load brings in, and
// cuDNN's own by-name loads of its sub-libraries from that process, each with its problem.
#pragma once

#include <cctype>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/search/sublibrary_specs.hpp>
#include "../machine/context.hpp"
#include "../inventory/library_names.hpp"
#include "../machine/frameworks.hpp"
#include "../machine/text_values.hpp"
#include "../machine/layout.hpp"
#include "../words/loads.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t walked_files_limit = 256;  // a dependency closure larger than this is not real

// Which nvidia-* wheel installed each file (its RECORD), for the version of a library it loads.
class wheel_files {
 public:
  wheel_files(const site_index& site, const machine::environment& env) : site_(site.dir) {
    for (const machine::wheel& w : env.nvidia_wheels) {
      if (parent_dir(w.path) != site.dir) continue;
      text_file record = read_text(join_path(w.path, "RECORD"));
      if (!record.ok()) continue;
      for_each_line(record.text, [&](std::string_view line) {
        std::string relative(line.substr(0, line.find(',')));
        for (char& c : relative) c = c == '\\' ? '/' : c;
        if (relative.compare(0, 7, "nvidia/") == 0) owners_.emplace(relative, &w);
      });
    }
  }

  // The wheel that installed `path`; null when none did.
  const machine::wheel* owner(const std::string& path) const {
    if (path.size() <= site_.size() + 1 || path.compare(0, site_.size(), site_) != 0) return nullptr;
    std::string relative = path.substr(site_.size() + 1);
    for (char& c : relative) c = c == '\\' ? '/' : c;
    auto found = owners_.find(relative);
    return found == owners_.end() ? nullptr : found->second;
  }

 private:
  std::string site_;
  std::map<std::string, const machine::wheel*> owners_;
};

// A loaded file's version: its wheel's, else what the file says (its name, version word or
// resource), with the source.
inline machine::library_load describe_load(const std::string& name, const std::string& path, const wheel_files& wheels,
                                           const char* version_symbol = nullptr) {
  const char* library = loaded_library_display(name);
  machine::library_load load{library ? library : "", name, lexically_normal(path), {}, {}};
  if (path.empty()) return load;
  if (const machine::wheel* w = wheels.owner(load.path)) {
    load.version = w->version;
    load.version_source = words::from_wheel(*w);
    return load;
  }
  load.version = platform::cudnn_file_version(load.path, version_symbol, load.version_source);
  return load;
}

// The files a load brings in, and the imports it cannot satisfy.
struct import_walk {
  std::vector<std::pair<std::string, std::string>> found;  // name, path: each file once, in the order reached
  std::vector<missing_dependency> missing;

  std::string path_of(const std::string& name) const {
    for (const auto& f : found) {
      if (f.first == name) return f.second;
    }
    return {};
  }
};

// Walks the imports of `top` and of what they import in turn, each located with `resolver` as
// the platform's loader would for `kind`; `fallback(name, searched)` may find what the loader
// does not (torch's own preload from the nvidia wheels).
template <class Resolver, class Fallback>
import_walk walk_imports(const Resolver& resolver, const std::string& top, load_kind kind, Fallback fallback) {
  import_walk walk;
  std::vector<std::vector<std::string>> pending = {{top}};
  std::vector<std::string> visited = {top};
  while (!pending.empty()) {
    std::vector<std::string> chain = std::move(pending.back());
    pending.pop_back();
    std::string error;
    for (const std::string& name : resolver.needs(chain.back(), error)) {
      std::vector<searched_place> searched;
      std::string found = resolver.locate(name, platform::requester_for(top, chain.back()), searched, kind);
      if (found.empty()) found = fallback(name, searched);
      // As a person reads it: a RUNPATH's $ORIGIN/../../nvidia/cudnn/lib without its "..".
      found = lexically_normal(found);
      if (found.empty()) {
        walk.missing.push_back({chain, name, std::move(searched), {}, {}});
        continue;
      }
      if (walk.path_of(name).empty()) walk.found.emplace_back(name, found);
      if (!platform::walk_into(found) || visited.size() >= walked_files_limit) continue;
      bool seen = false;
      for (const std::string& v : visited) seen = seen || v == found;
      if (seen) continue;
      visited.push_back(found);
      std::vector<std::string> next = chain;
      next.push_back(found);
      pending.push_back(std::move(next));
    }
  }
  return walk;
}

// The file the platform's loader would use for `name` (the resolver's locate), with where it
// looked said after `searched` (words::place_texts).
template <class Resolver>
std::string locate_and_say(const Resolver& resolver, const std::string& name, const std::string& requester,
                           std::vector<std::string>& searched, load_kind kind) {
  std::vector<searched_place> places;
  std::string found = resolver.locate(name, requester, places, kind);
  for (std::string& text : detail::words::place_texts(places)) searched.push_back(std::move(text));
  return found;
}

// An import walk that finds no more than the platform's loader does.
template <class Resolver>
import_walk walk_imports(const Resolver& resolver, const std::string& top, load_kind kind) {
  return walk_imports(resolver, top, kind,
                      [](const std::string&, std::vector<searched_place>&) { return std::string(); });
}

// The files of a walk that are libraries cushim names, as a framework's loads.
inline void add_known_loads(const import_walk& walk, const wheel_files& wheels, machine::framework& fw) {
  for (const auto& f : walk.found) {
    if (loaded_library_display(f.first)) fw.loads.push_back(describe_load(f.first, f.second, wheels));
  }
}

// Whether a file is one of CUDA's own libraries (the runtime, cuDNN, cuBLAS, cuFFT, NPP, NVRTC,
// the driver, ...), by its name on either platform.
inline bool is_cuda_library_file(const std::string& file) {
  std::string name;
  for (char c : file) name += char(std::tolower(static_cast<unsigned char>(c)));
  if (name.compare(0, 3, "lib") == 0) name = name.substr(3);
  for (const char* prefix : {"cudart", "cudnn", "cublas", "cufft", "curand", "cusparse", "cusolver", "npp", "nvrtc",
                             "nvjpeg", "nvcuda", "cuda."}) {
    if (name.compare(0, std::char_traits<char>::length(prefix), prefix) == 0) return true;
  }
  return false;
}

// How a framework whose files do not say it (OpenCV) was built, from what its load brings in or
// misses: "cuda" when that reaches one of CUDA's libraries, else "cpu"; the CUDA major their names
// carry.
inline void build_from_loaded_files(const import_walk& walk, machine::framework& fw) {
  std::vector<std::string> names;
  for (const auto& f : walk.found) names.push_back(f.first);
  for (const missing_dependency& m : walk.missing) names.push_back(m.name);
  fw.build = "cpu";
  for (const std::string& name : names) {
    if (!is_cuda_library_file(name)) continue;
    fw.build = "cuda";
    if (int major = platform::cuda_major_named_by(name); major && fw.cuda.empty()) fw.cuda = std::to_string(major);
  }
}

// cuDNN's own loads of its sub-libraries by name, from the process the framework made: those it
// would not find (one problem), and each it would find of another release than `main`.
// `locate(file, searched)` answers as the platform's loader does from cuDNN's main library.
template <class Locate>
void check_cudnn_by_name(const machine::library_load& main, int major, const wheel_files& wheels, Locate locate,
                         const std::string& context_text, machine::framework& fw) {
  std::string release = leading_parts(main.version, 3);
  long encoded = cudnn_version_from_text(release.c_str());
  std::vector<std::string> missing, first_searched;
  bool root_missing = false;
  for (const sublibrary_spec& spec : cudnn_sublibrary_specs(major)) {
    std::string file = sublibrary_file_name(spec.name, major);
    std::vector<std::string> searched;
    std::string found = locate(file, searched);  // a later one too: a copy of another release is met (pytorch#188892)
    if (found.empty()) {
      if (spec.since && (encoded == 0 || encoded < spec.since)) continue;  // not part of this release
      if (spec.role == sublibrary_role::engines && spec.since) continue;   // loaded only for the engines it has
      if (missing.empty()) first_searched = searched;
      missing.push_back(file);
      root_missing = root_missing || spec.role == sublibrary_role::root;
      continue;
    }
    machine::library_load sub = describe_load(file, found, wheels, spec.version_symbol);
    std::string sub_release = leading_parts(sub.version, 3);
    if (release.empty() || sub_release.empty() || sub_release == release) continue;
    fw.problems.push_back(words::cudnn_sublibrary_of_other_release(
        platform::windows_names, release, main.path, context_text, file, found, sub_release, sub.version_source));
  }
  if (missing.empty()) return;
  fw.problems.push_back(words::cudnn_sublibrary_not_found(platform::windows_names, main.path, context_text, missing,
                                                          first_searched, root_missing));
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
