// What building CUDA or cuDNN code from source needs ("cudnn cannot compile": a source build of
// operators), asked for with --build and shown without it when a toolkit's nvcc is not on PATH
// (Windows, where the installer puts it there): the host compiler nvcc needs (installed, on PATH,
// of which version), the environment torch's builds expect of a Visual Studio prompt
// (DISTUTILS_USE_SDK), whether the toolkit the build tools select accepts that compiler (its
// include/crt/host_config.h), and whether that toolkit has cuDNN's headers and import library of
// one release. Without --build its findings are notes: nobody asked to build.
#pragma once

#include <string>
#include <vector>

#include "../os.hpp"
#include "../words/build.hpp"
#include "context.hpp"
#include "host_compiler.hpp"
#include "layout.hpp"
#include "text_values.hpp"
#include "toolkits.hpp"
#include CUSHIM_DOCTOR_OS_BUILD_TOOLS

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// The _MSC_VER from which a toolkit's nvcc refuses the host compiler: "#if _MSC_VER < 1920 ||
// _MSC_VER >= 1950" in include/crt/host_config.h gives 1950; 0 when the file does not say.
inline int msc_ver_limit(const std::string& toolkit) {
  text_file config = read_text(join_path(join_path(join_path(toolkit, "include"), "crt"), "host_config.h"));
  int limit = 0;
  for_each_line(config.text, [&](std::string_view line) {
    std::size_t at = line.find("_MSC_VER >= ");
    if (limit || line.find("#if _MSC_VER <") == std::string_view::npos || at == std::string_view::npos) return;
    limit = std::atoi(std::string(line.substr(at + 12)).c_str());
  });
  return limit;
}

// 1939 for cl.exe 19.39.33523; 0 for what is not such a version.
inline int msc_ver_of(const std::string& version) {
  std::vector<int> parts;
  return version_numbers(version, parts) && parts[0] >= 19 ? parts[0] * 100 + parts[1] : 0;
}

inline void check_toolkit_for_build(const machine::toolkit& t, const std::string& compiler_version,
                                    std::vector<machine::problem>& problems, std::vector<std::string>& notes) {
  int msc = msc_ver_of(compiler_version), limit = msc_ver_limit(t.path);
  if (msc && limit && msc >= limit) {
    problems.push_back(words::host_compiler_unsupported(
        t, compiler_version, msc, limit, join_path(join_path(join_path(t.path, "include"), "crt"), "host_config.h")));
  }
  if (t.cudnn.empty()) return notes.push_back(words::toolkit_without_cudnn(t.path));
  const machine::cudnn_install& c = t.cudnn.front();
  std::string has = words::toolkit_has_cudnn(t.path, c);
  if (!platform::windows_names) return notes.push_back(has);
  if (c.import_library.empty()) {
    problems.push_back(words::cudnn_without_import_library(t.path, join_path(t.path, "lib\\x64")));
    return;
  }
  notes.push_back(words::with_import_library(has, c.import_library, platform::cudnn_main_file(c.import_library_major)));
}

inline void examine_build_tools(const context& ctx, machine::findings& f) {
  std::vector<std::string> ignored;
  bool without_nvcc = platform::windows_names && !f.toolkits.empty() && first_nvcc(ctx, ignored).empty();
  if (!ctx.opts.build && !without_nvcc) return;
  machine::build_tools& b = f.build;
  b.examined = true;
  if (!ctx.opts.build) b.notes.push_back(words::no_nvcc_on_path());
  std::vector<machine::problem> problems;
  std::vector<host_compiler> installed = platform::installed_host_compilers(ctx, b.notes);
  const host_compiler* usable = nullptr;
  for (const host_compiler& c : installed) {
    b.installed.push_back(words::installed_compiler(c));
    if (!usable && !c.compiler.empty()) usable = &c;
  }
  for (const std::string& dir : absolute_entries(ctx, "PATH", ignored)) {
    std::string path = join_path(dir, platform::compiler_file);
    if (!platform::is_executable_file(path)) continue;
    b.compiler = path, b.compiler_version = platform::compiler_version_of(path);
    break;
  }
  std::string quoted = words::cannot_find_compiler(platform::compiler_file);
  if (b.compiler.empty() && !usable) {
    problems.push_back(words::no_host_compiler(platform::windows_names, quoted));
  } else if (b.compiler.empty()) {
    problems.push_back(words::compiler_not_on_path(platform::windows_names, *usable, platform::compiler_file, quoted));
  }
  if (std::string arch = ctx.env_value("VSCMD_ARG_TGT_ARCH"); !arch.empty() && !ctx.env("DISTUTILS_USE_SDK")) {
    problems.push_back(words::distutils_use_sdk_not_set(arch));
  }
  const machine::toolkit* selected = nullptr;
  for (const machine::toolkit& t : f.toolkits) {
    if (!selected && !t.selected_by.empty()) selected = &t;
  }
  if (selected) {
    std::string version = !b.compiler_version.empty() ? b.compiler_version : usable ? usable->compiler_version : "";
    check_toolkit_for_build(*selected, version, problems, b.notes);
  } else if (f.toolkits.empty()) {
    problems.push_back(words::no_toolkit());
  } else {
    b.notes.push_back(words::no_toolkit_selected());
  }
  if (ctx.opts.build) {
    b.problems = problems;
  } else {
    for (const machine::problem& p : problems) b.notes.push_back(words::as_note(p));
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
