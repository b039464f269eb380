// Windows: the C++ compilers a source build can host nvcc with, from their files: each Visual
// Studio or Build Tools instance the installer records (installationPath and installationVersion
// of its state.json in %ProgramData%\Microsoft\VisualStudio\Packages\_Instances\<id>), with the
// newest cl.exe of its C++ tools (VC\Tools\MSVC\<version>\bin\Hostx64\x64\cl.exe) and that file's
// FileVersion.
#pragma once

#include <string>
#include <vector>

#include "../context.hpp"
#include "../host_compiler.hpp"
#include "../json_values.hpp"
#include "../text_values.hpp"
#include "layout.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

constexpr const char* compiler_file = "cl.exe";
constexpr std::size_t instances_limit = 64;

// "19.39.33523" from cl.exe's version resource; empty when it has none.
inline std::string compiler_version_of(const std::string& path) {
  file_source file(path);
  pe_info info = read_pe_version(file);
  return info.file_version.empty() ? std::string() : discovery::leading_parts(info.file_version, 3);
}

// "Visual Studio Build Tools 2022", "Visual Studio 2022 Community": from its folder's names
// (...\Microsoft Visual Studio\2022\BuildTools).
inline std::string instance_name(const std::string& installation) {
  std::string edition = file_name_of(installation), year = file_name_of(parent_dir(installation));
  return discovery::words::visual_studio_instance(edition, year);
}

inline std::vector<discovery::host_compiler> installed_host_compilers(const discovery::context& ctx,
                                                                      std::vector<std::string>& notes) {
  std::vector<discovery::host_compiler> found;
  std::string program_data = ctx.env_value("ProgramData");
  if (program_data.empty()) return found;
  std::string instances = join_path(program_data, "Microsoft\\VisualStudio\\Packages\\_Instances");
  std::vector<std::string> ids = discovery::names_starting(instances, "", notes);
  if (ids.size() > instances_limit) ids.resize(instances_limit);
  for (const std::string& id : ids) {
    discovery::text_file state = discovery::read_text(join_path(join_path(instances, id), "state.json"));
    if (!state.ok()) continue;
    discovery::json_value v;
    if (!discovery::parse_json(state.text, v) || v.string_member("installationPath").empty()) {
      notes.push_back(discovery::words::not_an_instance_record(state.path));
      continue;
    }
    discovery::host_compiler c;
    c.root = v.string_member("installationPath");
    c.name = instance_name(c.root);
    c.version = v.string_member("installationVersion");
    std::string msvc = join_path(c.root, "VC\\Tools\\MSVC");
    std::vector<std::string> ignored, toolsets = discovery::names_starting(msvc, "", ignored);
    for (auto it = toolsets.rbegin(); it != toolsets.rend() && c.compiler.empty(); ++it) {
      std::string cl = join_path(join_path(msvc, *it), "bin\\Hostx64\\x64\\cl.exe");
      if (check_path(cl).kind == path_kind::file) c.compiler = cl, c.compiler_version = compiler_version_of(cl);
    }
    found.push_back(c);
  }
  return found;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
