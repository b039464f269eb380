// cuDNN's own sub-libraries, checked before any cuDNN function runs. cuDNN loads them by bare
// name and aborts the process (8.x; 9.x even for cudnnGetVersion) when one is missing, so cushim
// works out what cuDNN's by-name load would find, preloads the right copy by absolute path where
// that load would miss it, and refuses cuDNN (or gates the functions of one sub-library) instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "elf_dependencies.hpp"
#include "versions.hpp"

namespace cushim {
namespace detail {

struct sublibrary_spec {
  const char* name;            // as in the file name and the tables' sub-library column
  bool root;                   // every other sub-library and every call needs it
  const char* version_symbol;  // a 4-byte 0x00MMmmpp word it exports, or nullptr
};

inline std::vector<sublibrary_spec> cudnn_sublibrary_specs(int major) {
  if (major == 8) {
    return {{"ops_infer", true, "cudnn_ops_infer_version"},  {"ops_train", false, "cudnn_ops_train_version"},
            {"cnn_infer", false, "cudnn_cnn_infer_version"}, {"cnn_train", false, "cudnn_cnn_train_version"},
            {"adv_infer", false, "cudnn_adv_infer_version"}, {"adv_train", false, "cudnn_adv_train_version"}};
  }
  // Of cuDNN 9's sub-libraries only these three export a version word (9.19, checked with nm).
  return {{"graph", true, "cudnn_graph_version"},
          {"ops", false, "cudnn_ops_infer_version"},
          {"cnn", false, nullptr},
          {"adv", false, "cudnn_adv_infer_version"},
          {"heuristic", false, nullptr},
          {"engines_precompiled", false, nullptr},
          {"engines_runtime_compiled", false, nullptr}};
}

inline std::string sublibrary_file_name(const char* name, int major) {
  return std::string("libcudnn_") + name + ".so." + std::to_string(major);
}

inline long encode_cudnn_version(int major, int minor, int patch) {
  return major >= 9 ? major * 10000L + minor * 100L + patch : major * 1000L + minor * 100L + patch;
}

// "libcudnn_ops.so.9.19.0" -> 91900; 0 when the name carries no full version.
inline long cudnn_version_from_file_name(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  std::size_t at = base.find(".so.");
  if (at == std::string::npos) return 0;
  int parts[3] = {0, 0, 0};
  int count = 0;
  for (const char* p = base.c_str() + at + 4; *p && count < 3; ++count) {
    char* end = nullptr;
    parts[count] = int(std::strtol(p, &end, 10));
    if (end == p) return 0;
    p = *end == '.' ? end + 1 : end;
  }
  return count == 3 ? encode_cudnn_version(parts[0], parts[1], parts[2]) : 0;
}

// The version in the real file's name, else the exported version word, read from the file:
// nothing is run.
inline long cudnn_version_of_file(const std::string& path, const char* version_symbol) {
  if (long v = cudnn_version_from_file_name(platform::canonical_path(path))) return v;
  std::uint32_t packed = 0;
  platform::file_source file(path);
  if (!version_symbol || !read_elf_symbol_bytes(file, version_symbol, &packed, sizeof packed)) return 0;
  return encode_cudnn_version(int(packed >> 16 & 0xff), int(packed >> 8 & 0xff), int(packed & 0xff));
}

inline std::string cudnn_version_text(long v) { return v ? format_version(decode_cudnn_version(v), true) : "unknown"; }

// Fills one sub-library's entry: which file cuDNN would use, its version and its dependencies.
inline sublibrary inspect_sublibrary(const sublibrary_spec& spec, int major, const std::string& main_path,
                                     const elf_info& main_elf, const elf_dependency_resolver& resolver) {
  sublibrary s;
  s.name = spec.name;
  s.file_name = sublibrary_file_name(spec.name, major);
  s.required = spec.root;
  std::vector<std::string> searched;
  std::string by_name = resolver.locate(s.file_name, main_elf, main_path, searched);
  std::string sibling = join_path(parent_dir(main_path), s.file_name);
  std::string why_not;
  bool sibling_ok = loadable_here(sibling, why_not);
  long by_name_version = by_name.empty() ? 0 : cudnn_version_of_file(by_name, spec.version_symbol);
  bool same_file =
      sibling_ok && !by_name.empty() && platform::canonical_path(sibling) == platform::canonical_path(by_name);
  long sibling_version = !sibling_ok ? 0
                         : same_file ? by_name_version
                                     : cudnn_version_of_file(sibling, spec.version_symbol);
  // cuDNN's own load wins unless it would miss the file or pick another version than the copy
  // beside the main library.
  bool use_sibling =
      sibling_ok && (by_name.empty() || (by_name_version && sibling_version && by_name_version != sibling_version));
  s.path = use_sibling ? sibling : by_name;
  s.version = int(use_sibling ? sibling_version : by_name_version);
  s.preloaded = use_sibling && platform::canonical_path(sibling) != platform::canonical_path(by_name);
  if (s.path.empty()) {
    s.problem = s.file_name + " is not beside " + main_path + " and cuDNN's own search would not find it (looked in: ";
    for (std::size_t i = 0; i < searched.size(); ++i) s.problem += (i ? ", " : "") + searched[i];
    s.problem += ")";
    return s;
  }
  std::vector<missing_dependency> missing = resolver.missing(s.path);
  if (!missing.empty()) {
    s.problem = describe(missing.front());
    return s;
  }
  s.usable = true;
  return s;
}

// The sub-library that serves a table's sub-library column (cuDNN 8's backend API lives in the
// root library).
inline const sublibrary* sublibrary_for(const std::vector<sublibrary>& subs, const char* column) {
  std::string name = std::string(column) == "backend" ? "ops_infer" : column;
  for (const sublibrary& s : subs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace detail
}  // namespace cushim
