// The frameworks in one site-packages folder, from their files alone: which framework_specs are
// installed (their package folder or their distribution's .dist-info), their versions, how each
// was built (CUDA, CPU, ROCm) and for what, their CUDA-bound native library, and the nvidia-*
// wheels beside them. Only the names that matter are read from a folder of 10,000 packages.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <cushim/detail/files/pe.hpp>
#include "context.hpp"
#include "framework_specs.hpp"
#include "text_values.hpp"
#include "layout.hpp"
#include "../words/pythons.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// A distribution name as pip compares it: lower case, '-' and '.' as '_'.
inline std::string normalized_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = c == '-' || c == '.' ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An installed distribution: its .dist-info (or .egg-info) folder.
struct distribution {
  std::string folder;   // the .dist-info path
  std::string name;     // normalised, from the folder's name
  std::string version;  // from the folder's name
};

// A site-packages folder's entries: the names in it, and its distributions.
struct site_index {
  std::string dir;
  std::vector<std::string> names;
  std::vector<distribution> distributions;

  bool has(const std::string& name) const { return std::binary_search(names.begin(), names.end(), name); }
  const distribution* find(std::string_view normalized) const {
    for (const distribution& d : distributions) {
      if (d.name == normalized) return &d;
    }
    return nullptr;
  }
};

inline site_index index_site(const std::string& dir, std::vector<std::string>& notes) {
  site_index index;
  index.dir = dir;
  platform::folder_listing l = platform::list_names(dir, folder_names_limit);
  if (!l.error.empty()) notes.push_back(words::cannot_be_listed(dir, l.error));
  if (l.total > l.names.size()) notes.push_back(words::names_read_in_part(dir, l.total, l.names.size(), "examined"));
  index.names = std::move(l.names);
  std::sort(index.names.begin(), index.names.end());
  for (const std::string& name : index.names) {
    for (const char* suffix : {".dist-info", ".egg-info"}) {
      std::size_t n = std::char_traits<char>::length(suffix);
      if (name.size() <= n || name.compare(name.size() - n, n, suffix) != 0) continue;
      std::string stem = name.substr(0, name.size() - n);
      std::size_t dash = stem.find('-');
      index.distributions.push_back({join_path(dir, name), normalized_name(stem.substr(0, dash)),
                                     dash == std::string::npos ? std::string() : stem.substr(dash + 1)});
    }
  }
  return index;
}

// What a distribution's METADATA says: its name, version and pinned requirements.
struct metadata {
  std::string name, version;
  std::vector<std::string> requires_dist;
};

inline metadata read_metadata(const distribution& d, std::vector<std::string>& notes) {
  metadata m;
  text_file file = read_text(join_path(d.folder, "METADATA"));
  if (!file.exists()) file = read_text(join_path(d.folder, "PKG-INFO"));
  if (!file.ok()) {
    notes.push_back(words::metadata_unreadable(file.path, file.exists(), file.error, d.version));
    m.version = d.version;
    return m;
  }
  if (file.truncated()) notes.push_back(file.truncation_note());
  auto headers = metadata_headers(file.text);
  m.name = header_value(headers, "Name");
  m.version = header_value(headers, "Version");
  for (const auto& h : headers) {
    if (h.first == "Requires-Dist") m.requires_dist.push_back(h.second);
  }
  if (m.version.empty()) {
    notes.push_back(words::metadata_without_version(file.path, d.version));
    m.version = d.version;
  }
  return m;
}

// The pinned requirement of `meta` on the distribution `wheel_name` ("nvidia-cudnn-cu12==9.1.0.70"
// -> "9.1.0.70"), where its marker applies to this platform; empty when there is none.
inline std::string pinned_requirement(const metadata& meta, const std::string& wheel_name) {
  for (const std::string& r : meta.requires_dist) {
    std::size_t op = r.find("==");
    if (op == std::string::npos || normalized_name(trimmed(r.substr(0, op))) != normalized_name(wheel_name)) continue;
    std::string_view rest = r;
    rest = rest.substr(op + 2);
    std::size_t semicolon = rest.find(';');
    std::string version(trimmed(rest.substr(0, semicolon)));
    std::string_view marker = semicolon == std::string_view::npos ? std::string_view() : rest.substr(semicolon + 1);
    if (marker.find("extra") != std::string_view::npos) continue;
    bool linux_only = marker.find("Linux") != std::string_view::npos || marker.find("linux") != std::string_view::npos;
    bool windows_only =
        marker.find("Windows") != std::string_view::npos || marker.find("win32") != std::string_view::npos;
    if ((linux_only && platform::windows_names) || (windows_only && !platform::windows_names)) continue;
    return version;
  }
  return {};
}

// Windows' build_info writes versions as "64_112" (11.2) and "64_8" (8).
inline std::string build_version_text(const std::string& value) {
  if (value.compare(0, 3, "64_") != 0) return value;
  std::string digits = value.substr(3);
  if (digits.size() == 3) return digits.substr(0, 2) + "." + digits.substr(2);
  return digits;
}

// The CUDA major a distribution's name carries: "cupy_cuda12x", "jax_cuda13_plugin" -> "12", "13".
inline std::string cuda_in_name(const std::string& normalized) {
  std::size_t at = normalized.find("cuda");
  if (at == std::string::npos || at + 6 > normalized.size()) return {};
  std::string major = normalized.substr(at + 4, 2);
  return std::isdigit(static_cast<unsigned char>(major[0])) && std::isdigit(static_cast<unsigned char>(major[1]))
             ? major
             : std::string();
}

inline std::string string_value(const std::vector<std::pair<std::string, py_value>>& values, const char* key) {
  if (!key) return {};
  const py_value* v = find_value(values, key);
  return v && v->type == py_value::kind::string ? v->text : std::string();
}

inline bool true_value(const std::vector<std::pair<std::string, py_value>>& values, const char* key) {
  const py_value* v = key ? find_value(values, key) : nullptr;
  return v && ((v->type == py_value::kind::boolean && v->text == "True") ||
               (v->type == py_value::kind::string && (v->text == "True" || v->text == "ON" || v->text == "1")));
}

// A framework found in one site-packages folder, read from its files; its loads are worked out
// later (framework_loader.hpp).
struct found_framework {
  const framework_spec* spec;
  machine::framework fw;
  metadata meta;
  std::vector<std::string> by_name_loads;  // the files it loads by name at run time
};

inline std::string native_path(const std::string& site, const char* relative) {
  std::string path = site;
  std::string_view rest = relative;
  while (!rest.empty()) {
    std::size_t slash = rest.find('/');
    path = join_path(path, rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  return path;
}

inline void read_build(const framework_spec& spec, const std::string& site, found_framework& found) {
  machine::framework& fw = found.fw;
  if (!spec.version_file) return;
  text_file file = read_text(native_path(site, spec.version_file));
  if (!file.ok()) {
    fw.notes.push_back(words::build_unknown(file.path, file.exists(), file.error, spec.name));
    return;
  }
  if (file.truncated()) fw.notes.push_back(file.truncation_note());
  auto values = python_assignments(file.text);
  const char* key = spec.version_key ? spec.version_key : spec.cuda_build_key ? spec.cuda_build_key : spec.cuda_key;
  if (!find_value(values, key)) {
    fw.notes.push_back(words::not_generated_file(file.path, key, spec.name));
    return;
  }
  if (std::string v = string_value(values, spec.version_key); !v.empty()) {
    fw.version = v;
    fw.version_source = spec.version_file;
  }
  fw.cuda = build_version_text(string_value(values, spec.cuda_key));
  if (fw.cuda == "False") fw.cuda.clear();
  fw.cudnn = build_version_text(string_value(values, spec.cudnn_key));
  if (fw.cudnn == "False") fw.cudnn.clear();
  fw.hip = string_value(values, spec.hip_key);
  if (const py_value* archs = spec.architectures_key ? find_value(values, spec.architectures_key) : nullptr) {
    fw.architectures = archs->items;
  }
  for (const char* name : spec.by_name_keys) {
    if (!name) break;
    std::string file_name = string_value(values, name);
    if (!file_name.empty()) found.by_name_loads.push_back(file_name);
  }
  if (spec.cuda_build_key) {
    fw.build = true_value(values, spec.cuda_build_key)   ? "cuda"
               : true_value(values, spec.rocm_build_key) ? "rocm"
                                                         : "cpu";
  } else if (!fw.hip.empty() && fw.cuda.empty()) {
    fw.build = "rocm";
  } else if (find_value(values, spec.cuda_key)) {
    fw.build = fw.cuda.empty() ? "cpu" : "cuda";
  }
}

inline std::vector<found_framework> find_frameworks(const site_index& site) {
  std::vector<found_framework> all;
  for (const framework_spec& spec : framework_specs) {
    if (spec.loader == loader_model::opencv && !platform::windows_names) continue;  // modelled on Windows only
    const distribution* dist = nullptr;
    for (const char* name : spec.distributions) {
      if (!name) break;
      if ((dist = site.find(name))) break;
    }
    bool has_package = spec.package && site.has(spec.package);
    if (!dist && !has_package) continue;
    found_framework found{&spec, {}, {}, {}};
    machine::framework& fw = found.fw;
    fw.name = spec.name;
    fw.build = "unknown";
    if (dist) {
      found.meta = read_metadata(*dist, fw.notes);
      fw.distribution = found.meta.name.empty() ? dist->name : found.meta.name;
      fw.version = found.meta.version;
      fw.version_source = words::metadata_source(file_name_of(dist->folder));
    } else {
      fw.notes.push_back(words::no_dist_info(join_path(site.dir, spec.package)));
    }
    read_build(spec, site.dir, found);
    for (const char* relative : platform::windows_names ? spec.windows_native : spec.linux_native) {
      if (!relative) break;
      std::string path = native_path(site.dir, relative);
      if (platform::check_path(path).kind != platform::path_kind::absent) {
        fw.native_file = path;
        break;
      }
    }
    if (spec.cuda_in_distribution && dist) {
      fw.cuda = cuda_in_name(dist->name);
      fw.build = fw.cuda.empty() ? "unknown" : "cuda";
    }
    // A native file says "CUDA" where the framework ships one for CUDA only; OpenCV's loader decides.
    if (fw.build == "unknown" && !fw.native_file.empty() && spec.loader != loader_model::opencv) fw.build = "cuda";
    if (fw.build == "unknown" && dist && spec.cpu_distribution && dist->name == spec.cpu_distribution) fw.build = "cpu";
    if (fw.version.find("+cpu") != std::string::npos) fw.build = "cpu";
    all.push_back(std::move(found));
  }
  return all;
}

// The nvidia-* distributions of a site-packages folder.
inline void find_nvidia_wheels(const site_index& site, machine::environment& e) {
  for (const distribution& d : site.distributions) {
    if (d.name.compare(0, 7, "nvidia_") != 0) continue;
    metadata m = read_metadata(d, e.notes);
    e.nvidia_wheels.push_back({m.name.empty() ? d.name : m.name, m.version, d.folder});
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
