// Who installed a file, from the package managers' own records, read as files: the distribution's
// (dpkg: system_packages.hpp), conda's (each environment's conda-meta/*.json) and pip's (each
// nvidia-* wheel's RECORD). Only records that can name an NVIDIA library are read, and only the
// files among them that are one are kept (by identity, so a file reached by a link or a linked
// folder is found too).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../machine/context.hpp"
#include "../machine/frameworks.hpp"
#include "../machine/machine.hpp"
#include "library_names.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t package_list_limit = 16u << 20;  // one package's list of files

struct package_record {
  std::string installed_by;  // "package", "pip", "conda"
  std::string package;       // its name as its manager knows it: "libcudnn9-cuda-13", "nvidia-cudnn-cu13"
  std::string version;       // as its manager writes it: "9.14.0.64-1", "9.19.0.56"
  std::string where;         // "dpkg", or the environment it is in

  // "libcudnn9-cuda-13 9.14.0.64-1 (dpkg)", "nvidia-cudnn-cu13 9.19.0.56 (pip, /opt/torch/.venv)".
  std::string text() const { return package + " " + version + " (" + where + ")"; }
};

// Whether a package's name can be one that installs an NVIDIA library: the words its names use.
inline bool nvidia_package_name(const std::string& name) {
  for (const char* word : {"cuda", "cudnn", "cublas", "nvidia", "nvrtc", "cufft", "curand", "cusparse", "cusolver",
                           "nvjitlink", "nccl", "cudatoolkit", "cuda-toolkit"}) {
    if (name.find(word) != std::string::npos) return true;
  }
  return false;
}

// The upstream part of a package's version: "9.14.0.64" of dpkg's "1:9.14.0.64-1".
inline std::string upstream_version(std::string version) {
  std::size_t colon = version.find(':');
  if (colon != std::string::npos && colon < version.find('.')) version.erase(0, colon + 1);
  std::size_t dash = version.rfind('-');
  if (dash != std::string::npos && dash > 0) version.erase(dash);
  return version;
}

class package_records {
 public:
  // Records `r` as the owner of `path` when its name is a library cushim knows.
  void add(const std::string& path, const package_record& r) {
    named_library named;
    if (!library_named(file_name_of(path), named)) return;
    platform::file_identity id = platform::identity_of(path);
    if (id.known()) owners_.emplace(std::make_pair(id.device, id.inode), r);
  }

  const package_record* owner_of(const platform::file_identity& id) const {
    auto found = owners_.find(std::make_pair(id.device, id.inode));
    return found == owners_.end() ? nullptr : &found->second;
  }

 private:
  std::map<std::pair<std::uint64_t, std::uint64_t>, package_record> owners_;
};

// The strings of the JSON array `"key": [...]` in `text` (conda-meta's "files"); not a JSON
// reader: the first such key is taken, and garbage ends the list.
inline std::vector<std::string> json_string_array(std::string_view text, std::string_view key) {
  std::vector<std::string> items;
  std::size_t at = text.find("\"" + std::string(key) + "\"");
  if (at == std::string_view::npos) return items;
  std::string_view rest = trimmed(text.substr(at + key.size() + 2));
  if (rest.empty() || rest[0] != ':') return items;
  rest = trimmed(rest.substr(1));
  if (rest.empty() || rest[0] != '[') return items;
  rest = trimmed(rest.substr(1));
  std::string item;
  while (read_quoted(rest, item, rest)) {
    items.push_back(item);
    rest = trimmed(rest);
    if (rest.empty() || rest[0] != ',') break;
    rest = trimmed(rest.substr(1));
  }
  return items;
}

// conda-meta/<name>-<version>-<build>.json of each conda environment: conda's record of the files
// each package put into it.
inline void read_conda_records(const machine::environment& e, package_records& records,
                               std::vector<std::string>& notes) {
  std::string meta = join_path(e.path, "conda-meta");
  for (const std::string& file : names_starting(meta, "", notes)) {
    std::size_t build = file.rfind('-');
    std::size_t version = build == std::string::npos || build == 0 ? std::string::npos : file.rfind('-', build - 1);
    if (version == std::string::npos || file.size() < 5 || file.compare(file.size() - 5, 5, ".json") != 0) continue;
    std::string name = file.substr(0, version);
    if (!nvidia_package_name(name)) continue;
    text_file json = read_text(join_path(meta, file), package_list_limit);
    if (!json.ok()) {
      notes.push_back(words::cannot_be_read(json.path, json.error));
      continue;
    }
    if (json.truncated()) notes.push_back(json.truncation_note());
    package_record r{"conda", name, file.substr(version + 1, build - version - 1), "conda, " + e.path};
    for (const std::string& relative : json_string_array(json.text, "files"))
      records.add(join_path(e.path, relative), r);
  }
}

// Each nvidia-* wheel's RECORD: pip's list of the files it installed, relative to site-packages.
inline void read_wheel_records(const machine::environment& e, package_records& records,
                               std::vector<std::string>& notes) {
  for (const machine::wheel& w : e.nvidia_wheels) {
    text_file record = read_text(join_path(w.path, "RECORD"), package_list_limit);
    if (!record.ok()) {
      if (record.exists()) notes.push_back(words::cannot_be_read(record.path, record.error));
      continue;
    }
    if (record.truncated()) notes.push_back(record.truncation_note());
    package_record r{"pip", w.name, w.version, "pip, " + e.path};
    std::string site = parent_dir(w.path);
    for_each_line(record.text, [&](std::string_view line) {
      std::string relative(line.substr(0, line.find(',')));
      if (relative.find(".so") == std::string::npos && relative.find(".dll") == std::string::npos) return;
      records.add(lexically_normal(join_path(site, relative)), r);
    });
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
