// The parts of cushim's implementation the doctor reads that the public API does not offer yet:
// the NVIDIA driver probe, the ELF and PE readers with their dependency resolvers, JSON string quoting and
// version formatting. Kept in this one file so that a public API for them replaces only this file.
// Include after <cushim/status.hpp> with CUSHIM_IMPLEMENTATION defined.
#pragma once

#include <string>
#include <vector>

namespace doctor {

struct driver_info {
  bool found = false;
  std::string path;      // libcuda.so.1 as loaded
  int cuda_version = 0;  // the newest CUDA it supports (cuDriverGetVersion), M*1000+m*10
};

inline driver_info nvidia_driver() {
  const cushim::detail::driver_status& d = cushim::detail::driver();
  return {d.found, d.path, d.cuda_version};
}

struct dependency {
  std::string name;                   // as DT_NEEDED names it
  std::string path;                   // the file the system loader would use; empty when none
  std::vector<std::string> searched;  // where it looked, when it found nothing
};

struct library_dependencies {
  std::string file_name;
  std::string path;
  std::string error;  // why the file could not be read; empty when it was
  std::vector<dependency> needs;
};

// Reads a library's DT_NEEDED entries (Windows: its import table) and resolves each the way the
// system loader would for a library cushim loaded by absolute path.
class dependency_finder {
 public:
  library_dependencies of(const std::string& file_name, const std::string& path) const {
    library_dependencies result{file_name, path, {}, {}};
    cushim::detail::platform::file_source file(path);
#ifdef _WIN32
    cushim::detail::pe_info info = cushim::detail::read_pe(file);
    bool readable = info.error == cushim::detail::pe_error::none;
    const std::vector<std::string>& names = info.imports;
    auto locate = [&](const std::string& name, std::vector<std::string>& searched) {
      return resolver_.locate(name, path, searched);
    };
#else
    cushim::detail::elf_info info = cushim::detail::read_elf(file);
    bool readable = info.error == cushim::detail::elf_error::none;
    const std::vector<std::string>& names = info.needed;
    auto locate = [&](const std::string& name, std::vector<std::string>& searched) {
      return resolver_.locate(name, info, path, searched);
    };
#endif
    if (!file.ok() || !readable) {
      result.error = file.ok() ? info.error_detail : file.error();
      return result;
    }
    for (const std::string& name : names) {
      dependency d{name, {}, {}};
      d.path = locate(name, d.searched);
      result.needs.push_back(std::move(d));
    }
    return result;
  }

 private:
#ifdef _WIN32
  cushim::detail::pe_dependency_resolver resolver_;
#else
  cushim::detail::elf_dependency_resolver resolver_;
#endif
};

// JSON string literal (with quotes); bytes that are not UTF-8 become U+FFFD, as in explain_json().
inline std::string json_string(const std::string& text) {
  std::string out;
  cushim::detail::append_json_string(out, text);
  return out;
}

// "9.19.0" (cuDNN 8 and 9 encodings), "13.0" (CUDA); "none" for 0.
inline std::string cudnn_version_text(long version) {
  if (version == 0) return "none";
  return cushim::detail::format_version(cushim::detail::decode_cudnn_version(version), true);
}
inline std::string cuda_version_text(long version) {
  if (version == 0) return "none";
  return cushim::detail::format_version(cushim::detail::decode_cuda_version(version), false);
}

}  // namespace doctor
