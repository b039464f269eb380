// A cuDNN in folders, from its files alone: the release its header says, the release of its main
// library and of each sub-library (their file names, version words or version resources), the
// CUDA major it was built for (the cuBLAS, cuBLASLt or runtime its files import) and, on Windows,
// the import library a build links (lib\x64\cudnn.lib) and the DLL it links to. The checks of
// what it sits beside (a toolkit, the build variables) are in checks.hpp.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/sublibrary_specs.hpp>
#include "context.hpp"
#include "text_values.hpp"
#include "layout.hpp"
#include "../words/cudnn.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// "8.9.7" from cudnn_version.h (cuDNN 8 and later) or cudnn.h (before); `header` receives the
// file read. Empty when neither is in `dir`.
inline std::string cudnn_header_version(const std::string& dir, std::string& header, std::vector<std::string>& notes) {
  for (const char* name : {"cudnn_version.h", "cudnn.h"}) {
    text_file file = read_text(join_path(dir, name));
    if (!file.exists()) continue;
    header = file.path;
    if (!file.ok()) {
      notes.push_back(words::cannot_be_read(file.path, file.error));
      return {};
    }
    std::string major = define_value(file.text, "CUDNN_MAJOR");
    if (major.empty()) {
      if (std::string(name) == "cudnn.h") {  // cuDNN 8 and later: the version is in cudnn_version.h
        notes.push_back(words::no_major_in_cudnn_h(file.path, join_path(dir, "cudnn_version.h")));
        return {};
      }
      notes.push_back(words::no_major_in_header(file.path));
      return {};
    }
    return major + "." + define_value(file.text, "CUDNN_MINOR") + "." + define_value(file.text, "CUDNN_PATCHLEVEL");
  }
  return {};
}

// The CUDA major a cuDNN file's imports name (libcublasLt.so.11: 11), with the sentence that says
// so; 0 when they name none.
inline int cuda_major_of_imports(const std::string& path, std::string& source) {
  std::string error;
  for (const std::string& name : platform::imports_of(path, error)) {
    if (int major = platform::cuda_major_named_by(name)) {
      source = words::file_imports(file_name_of(path), name);
      return major;
    }
  }
  return 0;
}

// The cuDNN whose main library is in one of `library_dirs` (the newest major first) with its
// header in one of `header_dirs`; false when neither a header nor a main library is there.
inline bool find_cudnn(const std::vector<std::string>& header_dirs, const std::vector<std::string>& library_dirs,
                       const std::string& found_by, machine::cudnn_install& out, std::vector<std::string>& notes) {
  out = {};
  out.found_by = found_by;
  for (const std::string& dir : header_dirs) {
    out.header_version = cudnn_header_version(dir, out.header, notes);
    if (!out.header.empty()) break;
  }
  std::string library_dir;
  int major = 0;
  for (const std::string& dir : library_dirs) {
    for (int m : {9, 8, 7}) {
      std::string path = join_path(dir, platform::cudnn_main_file(m));
      if (platform::check_path(path).kind != platform::path_kind::file) continue;
      out.library = path;
      library_dir = dir;
      major = m;
      break;
    }
    if (major) break;
  }
  if (out.header.empty() && out.library.empty()) return false;
  if (out.library.empty()) return true;
  out.import_library = platform::cudnn_import_library(library_dir);
  if (!out.import_library.empty()) out.import_library_major = platform::cudnn_major_linked_by(out.import_library);
  std::string source;
  out.library_version = platform::cudnn_file_version(out.library, nullptr, out.version_source);
  if (!out.version_source.empty()) out.version_source = file_name_of(out.library) + ": " + out.version_source;
  out.built_for_cuda_major = cuda_major_of_imports(out.library, out.built_for_source);
  if (major < 8) return true;
  long release =
      cudnn_version_from_text((out.library_version.empty() ? out.header_version : out.library_version).c_str());
  for (const sublibrary_spec& spec : cudnn_sublibrary_specs(major)) {
    machine::cudnn_file sub;
    sub.name = sublibrary_file_name(spec.name, major);
    std::string path = join_path(library_dir, sub.name);
    if (platform::check_path(path).kind == platform::path_kind::file) {
      sub.path = path;
      sub.version = platform::cudnn_file_version(path, spec.version_symbol, source);
      if (!out.built_for_cuda_major) out.built_for_cuda_major = cuda_major_of_imports(path, out.built_for_source);
    } else if (spec.since && (release == 0 || release < spec.since)) {
      continue;  // not part of this release
    }
    if (out.library_version.empty() && !sub.version.empty()) {
      out.library_version = sub.version;
      out.version_source = sub.name + ": " + source;
    }
    out.sublibraries.push_back(sub);
  }
  return true;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
