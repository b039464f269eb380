// Every copy of every NVIDIA library cushim knows, of every major, found from files in the places
// the system loader, the toolkits, the Python environments and the standalone installs put them:
// each file once (by identity, with every path it was reached by), with its version and the CUDA
// major it belongs to read from its own files or its package's record, and who installed it.
// Nothing is loaded and nothing is run.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../machine/context.hpp"
#include "../machine/cudnn_files.hpp"
#include "../machine/machine.hpp"
#include "../os.hpp"
#include "library_names.hpp"
#include "packages.hpp"
#include "../words/inventory.hpp"
#include "../words/saved_environment.hpp"
#include CUSHIM_DOCTOR_OS_LIBRARY_PLACES
#include CUSHIM_DOCTOR_OS_SYSTEM_PACKAGES

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t copies_limit = 4096;  // files examined in all: more is no real machine

// A file found, before it is described.
struct found_file {
  named_library named;
  machine::library_copy copy;
  platform::file_identity id;
};

// Every folder to look in, each with how it was found; `saved_only`: the folders only the saved PATH
// has (stacks/saved_environment_checks.hpp), which a program started after a restart would search.
inline std::vector<located_folder> library_places(const context& ctx, std::string_view cache,
                                                  const std::vector<std::string>& saved_only,
                                                  const machine::findings& f, std::vector<std::string>& notes) {
  std::vector<located_folder> places = platform::system_library_places(ctx, cache, notes);
  for (const std::string& dir : saved_only) places.push_back({dir, words::in_registry_only("PATH")});
  for (const machine::toolkit& t : f.toolkits) {
    for (const std::string& dir : platform::toolkit_library_dirs(t.path))
      places.push_back({dir, words::the_toolkit(t.path)});
    for (const std::string& dir : platform::toolkit_special_dirs(t.path))
      places.push_back({dir, words::the_toolkit(t.path)});
  }
  for (const machine::environment& e : f.environments) {
    std::string by = words::the_environment(e.path);
    for (const std::string& dir : platform::environment_library_dirs(e.path)) places.push_back({dir, by});
    for (const std::string& site : e.site_packages) {
      std::string nvidia = join_path(site, "nvidia");
      std::vector<std::string> ignored;
      for (const std::string& package : names_starting(nvidia, "", ignored)) {
        for (const std::string& dir : platform::wheel_library_dirs(join_path(nvidia, package)))
          places.push_back({dir, by});
      }
      places.push_back({join_path(join_path(site, "torch"), "lib"), by});
    }
  }
  for (const char* variable : {"CUDNN_PATH", "CUDNN_HOME", "CUDNN_ROOT_DIR"}) {
    std::string root = ctx.env_value(variable);
    if (root.empty()) continue;
    for (const char* sub : {"", "lib64", "lib", "bin"})
      places.push_back({*sub ? join_path(root, sub) : root, variable});
  }
  if (std::string library = ctx.env_value("CUDNN_LIBRARY"); !library.empty()) {
    for (const std::string& dir : platform::cudnn_library_dirs(library)) places.push_back({dir, "CUDNN_LIBRARY"});
  }
  return places;
}

// The name the loader asks for is the one to show: libcudnn.so.9, not the real libcudnn.so.9.14.0.
inline bool is_loader_name(const named_library& n, const std::string& file) {
  if (!n.sublibrary.empty()) return n.sublibrary == "builtins" || !sublibrary_name_of(file, n.major).empty();
  return same_name(file, file_name_for_major(*n.d, n.major));
}

// Each library file in the places, once.
inline std::vector<found_file> find_library_files(const std::vector<located_folder>& places,
                                                  std::vector<std::string>& notes) {
  std::vector<found_file> files;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> index;
  std::vector<platform::file_identity> folders;
  bool over = false;
  for (const located_folder& place : places) {
    if (platform::check_path(place.path).kind != platform::path_kind::folder) continue;
    platform::file_identity folder = platform::identity_of(place.path);
    bool again = false;
    for (const platform::file_identity& seen : folders) again = again || (folder.known() && seen == folder);
    for (const std::string& name : names_starting(place.path, "", notes)) {
      named_library named;
      if (!library_named(name, named)) continue;
      std::string path = join_path(place.path, name);
      platform::path_check kind = platform::check_path(path);
      if (kind.kind != platform::path_kind::file) {
        if (kind.kind != platform::path_kind::folder && kind.kind != platform::path_kind::absent)
          add_unique(notes, words::library_name_but(path, kind.detail));
        continue;
      }
      platform::file_identity id = platform::identity_of(path);
      auto known = index.find({id.device, id.inode});
      if (known != index.end()) {
        machine::library_copy& c = files[known->second].copy;
        add_unique(c.found_by, place.found_by);
        if (again || path == c.path) continue;
        if (is_loader_name(named, name) && !is_loader_name(files[known->second].named, file_name_of(c.path))) {
          std::swap(c.path, path);
        }
        add_unique(c.also_at, path);
        continue;
      }
      if (files.size() >= copies_limit) {
        over = true;
        continue;
      }
      found_file found{named, {}, id};
      found.copy.library = !named.sublibrary.empty() ? ""
                           : named.d->reports_driver ? "NVIDIA driver"
                                                     : named.d->display_name;
      found.copy.key = named.d->key;
      found.copy.major = named.major;
      found.copy.path = path;
      found.copy.found_by.push_back(place.found_by);
      if (id.known()) index.emplace(std::make_pair(id.device, id.inode), files.size());
      files.push_back(std::move(found));
    }
    folders.push_back(folder);
  }
  if (over) notes.push_back(words::more_copies_than(copies_limit));
  return files;
}

// "13" from a package's or folder's name that carries a CUDA major: cu13, cuda-13, cuda13, cuda-12-4,
// cuda12x; 0 for any other.
inline int cuda_major_in_name(const std::string& name) {
  for (const char* marker : {"cuda-", "cuda_", "cuda", "cu"}) {
    for (std::size_t at = name.find(marker); at != std::string::npos; at = name.find(marker, at + 1)) {
      std::size_t digits = at + std::char_traits<char>::length(marker);
      if (digits + 2 > name.size() || !std::isdigit(static_cast<unsigned char>(name[digits])) ||
          !std::isdigit(static_cast<unsigned char>(name[digits + 1]))) {
        continue;
      }
      if (digits + 2 < name.size() && std::isdigit(static_cast<unsigned char>(name[digits + 2]))) continue;
      int major = std::atoi(name.substr(digits, 2).c_str());
      if (major >= 10 && major < 30) return major;
    }
  }
  return 0;
}

// The toolkit a file is in, by its path or the path its links lead to; null when none.
inline const machine::toolkit* toolkit_holding(const machine::findings& f, const std::string& path,
                                               const std::string& real) {
  for (const machine::toolkit& t : f.toolkits) {
    for (const std::string& root : {t.path, t.resolved_path}) {
      if (root.empty()) continue;
      for (const std::string& p : {path, real}) {
        if (p.size() > root.size() && p.compare(0, root.size(), root) == 0 &&
            (p[root.size()] == '/' || p[root.size()] == '\\')) {
          return &t;
        }
      }
    }
  }
  return nullptr;
}

// The framework whose bundle folder (site-packages/torch/lib) holds `path`; empty when none.
inline std::string bundling_framework(const machine::findings& f, const std::string& path) {
  for (const machine::environment& e : f.environments) {
    for (const machine::framework& fw : e.frameworks) {
      if (fw.native_file.empty()) continue;
      std::string folder = parent_dir(fw.native_file);
      if (parent_dir(path) == folder) return words::framework_folder(fw, folder);
    }
  }
  return {};
}

// The version a toolkit's own records give one of its files: version.json's component, else a
// dist-info RECORD (a toolkit laid out from NVIDIA's wheels) that lists a file of that name and size.
inline std::string toolkit_file_version(const machine::toolkit& t, const std::string& key, const std::string& path,
                                        std::string& source) {
  text_file json = read_text(join_path(t.path, "version.json"));
  if (const char* component = toolkit_component(key); component && json.ok()) {
    std::string v = version_json_component(json.text, component);
    if (!v.empty()) return source = words::toolkit_version_json(component), v;
  }
  std::uint64_t size = 0;
  {
    platform::file_source file(path);
    if (file.ok()) size = file.size();
  }
  std::vector<std::string> ignored;
  std::string name = file_name_of(path);
  for (const std::string& info : names_starting(join_path(t.path, "dist-info"), "nvidia_", ignored)) {
    text_file record =
        read_text(join_path(join_path(join_path(t.path, "dist-info"), info), "RECORD"), package_list_limit);
    bool listed = false;
    for_each_line(record.text, [&](std::string_view line) {
      std::string_view entry = line.substr(0, line.find(','));
      std::size_t last = line.rfind(',');
      if (listed || entry.size() < name.size() || entry.substr(entry.size() - name.size()) != name) return;
      listed = last != std::string_view::npos && std::to_string(size) == line.substr(last + 1);
    });
    if (!listed) continue;
    std::string dist = info.substr(0, info.size() - 10);  // nvidia_cudnn_cu13-9.19.0.56
    source = words::toolkit_dist_info(info);
    return dist.substr(dist.find('-') + 1);
  }
  return {};
}

// Who installed a copy, and the version and CUDA major that says.
inline void describe_owner(const context& ctx, const machine::findings& f, const package_records& records,
                           found_file& found) {
  machine::library_copy& c = found.copy;
  std::string real = c.file.empty() ? c.path : c.file;
  std::string folder = parent_dir(real);
  if (const package_record* r = records.owner_of(found.id)) {
    c.installed_by = r->installed_by;
    c.owner = r->text();
    c.package = r->package;
    if (int major = cuda_major_in_name(r->package)) c.cuda_major = major, c.cuda_source = "its package's name";
    return;
  }
  if (const machine::toolkit* t = toolkit_holding(f, c.path, real)) {
    c.installed_by = "toolkit";
    c.owner = words::toolkit_owner(*t);
    if (file_name_of(parent_dir(c.path)) == "stubs") {
      c.owner = words::link_time_stub(c.owner);
    } else if (file_name_of(parent_dir(c.path)) == "compat") {
      c.owner = words::forward_compatibility(c.owner);
    }
    if (int major = cuda_minor_key(t->version) / 100; major && found.named.d->in_toolkit) {
      c.cuda_major = major, c.cuda_source = "its toolkit";
    }
    return;
  }
  std::string framework = bundling_framework(f, real);
  if (!framework.empty()) {
    c.installed_by = "framework";
    c.owner = framework;
    return;
  }
  if (found.named.d->system_only) {
    c.installed_by = "driver";
    c.owner = words::the_driver_copy(
        c.path.compare(0, ctx.system_path("/usr/local/nvidia").size(), ctx.system_path("/usr/local/nvidia")) == 0);
    return;
  }
  c.installed_by = "by hand";
  c.owner = words::by_hand();
  for (const machine::environment& e : f.environments) {
    for (const std::string& site : e.site_packages) {
      if (c.path.compare(0, site.size() + 1, site + "/") == 0) c.owner = words::unrecorded_in(e.path);
    }
  }
  if (int major = cuda_major_in_name(folder)) c.cuda_major = major, c.cuda_source = "its folder's name";
}

// Its version: its file name or version word first, else its package's or toolkit's record.
inline void describe_version(const machine::findings& f, const package_records& records, found_file& found) {
  machine::library_copy& c = found.copy;
  const named_library& n = found.named;
  std::string real = c.file.empty() ? c.path : c.file;
  if (n.sublibrary == "builtins") {
    std::string base, numbers;
    if (split_shared_object_name(file_name_of(c.path), base, numbers)) {
      c.version = numbers, c.version_source = "its file name";
    } else {
      c.version = platform::version_in_file_name(c.path), c.version_source = "its FileVersion";
    }
    return;
  }
  if (n.d->id == library::cudnn) {
    const char* symbol = nullptr;
    for (const sublibrary_spec& spec : cudnn_sublibrary_specs(n.major)) {
      if (spec.name == n.sublibrary) symbol = spec.version_symbol;
    }
    c.version = platform::cudnn_file_version(c.path, symbol, c.version_source);
  } else {
    c.version = platform::version_in_file_name(c.path);
    if (!c.version.empty()) c.version_source = platform::version_file_text(c.path);
  }
  if (!c.version.empty()) return;
  if (const package_record* r = records.owner_of(found.id)) {
    c.version = upstream_version(r->version);
    c.version_source = words::its_package(r->package, r->version);
    return;
  }
  if (const machine::toolkit* t = toolkit_holding(f, c.path, real)) {
    c.version = toolkit_file_version(*t, n.d->key, real, c.version_source);
  }
}

// The CUDA major of a copy, where its name, its imports or its RUNPATH says (what its owner says
// was taken in describe_owner).
inline void describe_cuda_major(found_file& found) {
  machine::library_copy& c = found.copy;
  if (int major = platform::cuda_major_named_by(file_name_of(c.path))) {
    c.cuda_major = major, c.cuda_source = "its name";
  } else if (found.named.sublibrary == "builtins") {
    c.cuda_major = found.named.major, c.cuda_source = "its name";
  }
  if (c.cuda_major || found.named.d->id != library::cudnn) return;
  std::string source;
  if (int major = cuda_major_of_imports(c.path, source)) {
    c.cuda_major = major, c.cuda_source = source;
  } else if (int from_runpath = platform::cuda_major_of_runpath(c.path, source)) {
    c.cuda_major = from_runpath, c.cuda_source = source;
  }
}

// cuDNN's sub-libraries (and NVRTC's builtins) join the copy of their library in their folder; one
// without its library there stays a copy of its own.
inline std::vector<machine::library_copy> group_sublibraries(std::vector<found_file>& files) {
  std::vector<machine::library_copy> copies;
  // Each folder's main files by library and major (any major: -1, for NVRTC's builtins); the last wins.
  using main_key = std::tuple<std::string, const library_descriptor*, int>;
  std::map<main_key, std::size_t> mains;
  for (std::size_t j = 0; j < files.size(); ++j) {
    if (!files[j].named.sublibrary.empty()) continue;
    std::string folder = parent_dir(files[j].copy.path);
    mains[main_key(folder, files[j].named.d, files[j].named.major)] = j;
    mains[main_key(std::move(folder), files[j].named.d, -1)] = j;
  }
  std::vector<std::size_t> main_of(files.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].named.sublibrary.empty()) continue;
    int major = files[i].named.sublibrary == "builtins" ? -1 : files[i].named.major;
    auto main = mains.find(main_key(parent_dir(files[i].copy.path), files[i].named.d, major));
    if (main != mains.end()) main_of[i] = main->second;
  }
  std::vector<std::size_t> position(files.size(), 0);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (main_of[i] != files.size()) continue;
    position[i] = copies.size();
    machine::library_copy c = std::move(files[i].copy);
    if (c.library.empty()) c.library = words::alone(files[i].named.d->display_name, file_name_of(c.path));
    copies.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (main_of[i] == files.size()) continue;
    machine::library_copy& main = copies[position[main_of[i]]];
    const machine::library_copy& sub = files[i].copy;
    main.sublibraries.push_back({file_name_of(sub.path), sub.path, sub.version});
    if (main.version.empty() && !sub.version.empty()) {
      main.version = leading_parts(sub.version, 3);
      main.version_source = words::its_sublibrary(file_name_of(sub.path), sub.version_source);
    }
    if (!main.cuda_major && sub.cuda_major) main.cuda_major = sub.cuda_major, main.cuda_source = sub.cuda_source;
  }
  for (machine::library_copy& c : copies) {  // sub-libraries no file names a version of: their release's
    for (machine::cudnn_file& s : c.sublibraries) {
      if (s.version.empty()) s.version = c.version;
    }
  }
  return copies;
}

// cushim's order of the libraries (cushim::library's values).
inline int library_rank(const std::string& key) {
  for (int i = 0; i < library_count; ++i) {
    if (key == descriptors[i]->key) return i;
  }
  return library_count;
}

inline void take_inventory(const context& ctx, std::string_view cache, const std::vector<std::string>& saved_only,
                           machine::findings& f) {
  package_records records;
  platform::read_system_packages(ctx, records, f.notes);
  for (const machine::environment& e : f.environments) {
    if (platform::check_path(join_path(e.path, "conda-meta")).kind == platform::path_kind::folder) {
      read_conda_records(e, records, f.notes);
    }
    read_wheel_records(e, records, f.notes);
  }
  std::vector<found_file> files = find_library_files(library_places(ctx, cache, saved_only, f, f.notes), f.notes);
  for (found_file& found : files) {
    std::string real = platform::canonical_path(found.copy.path);
    if (real != found.copy.path) found.copy.file = real;
    std::string why;  // a file the loader would refuse has no version or CUDA major to read
    if (platform::inspect_file(real, why) != outcome::loaded) found.copy.notes.push_back(words::cannot_be_loaded(why));
    describe_owner(ctx, f, records, found);
    describe_version(f, records, found);
    if (!found.copy.cuda_major) describe_cuda_major(found);
  }
  f.copies = group_sublibraries(files);
  std::stable_sort(f.copies.begin(), f.copies.end(),
                   [](const machine::library_copy& a, const machine::library_copy& b) {
                     if (a.key != b.key) return library_rank(a.key) < library_rank(b.key);
                     return a.major > b.major;
                   });
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
