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

#include "context.hpp"
#include "layout.hpp"
#include "text_values.hpp"
#include "toolkits.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

// A C++ compiler installed where its installer records it (Windows: a Visual Studio instance).
struct host_compiler {
  std::string name;              // "Visual Studio Build Tools 2022"
  std::string version;           // "17.9.34622.214"
  std::string root;              // its installation folder
  std::string compiler;          // its newest cl.exe; empty without the C++ tools
  std::string compiler_version;  // "19.39.33523"
};

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim

#include "../os.hpp"
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
    problems.push_back(
        {"host_compiler_unsupported",
         "cl.exe " + compiler_version + " (_MSC_VER " + std::to_string(msc) + ") is newer than the CUDA " + t.version +
             " toolkit " + t.path + " accepts (_MSC_VER below " + std::to_string(limit) + ")",
         join_path(join_path(join_path(t.path, "include"), "crt"), "host_config.h"),
         "its include\\crt\\host_config.h stops every nvcc compile with \"unsupported Microsoft Visual Studio "
         "version!\"",
         "install an older MSVC toolset beside it (Visual Studio Installer, Individual components) and select it "
         "with vcvars64.bat -vcvars_ver=14." +
             std::to_string(limit % 100 - 1) + ", or use a newer CUDA toolkit"});
  }
  if (t.cudnn.empty()) {
    notes.push_back("the toolkit " + t.path +
                    " has no cuDNN copied in: a build that needs cuDNN takes it from "
                    "CUDNN_INCLUDE_DIR and CUDNN_LIBRARY (or CUDNN_PATH)");
    return;
  }
  const machine::cudnn_install& c = t.cudnn.front();
  std::string has =
      "the toolkit " + t.path + " has cuDNN " +
      (c.header.empty() ? std::string("without headers") : c.header_version + "'s headers (" + c.header + ")");
  if (!platform::windows_names) return notes.push_back(has);
  if (c.import_library.empty()) {
    problems.push_back(
        {"cudnn_incomplete",
         "the toolkit " + t.path + " has cuDNN's headers and DLLs but no import library (lib\\x64\\cudnn.lib)",
         join_path(t.path, "lib\\x64"),
         "a source build compiles against the headers and then fails to link cuDNN (\"LINK : fatal "
         "error LNK1181: cannot open input file 'cudnn.lib'\")",
         "copy the lib\\x64 folder of the same cuDNN archive into " + join_path(t.path, "lib\\x64")});
    return;
  }
  notes.push_back(has + " and its import library " + c.import_library + " (for " +
                  platform::cudnn_main_file(c.import_library_major) + ")");
}

inline void examine_build_tools(const context& ctx, machine::findings& f) {
  std::vector<std::string> ignored;
  bool without_nvcc = platform::windows_names && !f.toolkits.empty() && first_nvcc(ctx, ignored).empty();
  if (!ctx.opts.build && !without_nvcc) return;
  machine::build_tools& b = f.build;
  b.examined = true;
  if (!ctx.opts.build) {
    b.notes.push_back(
        "no nvcc on PATH (the toolkits' bin folders are not on it): a build from this prompt finds "
        "no nvcc; cushim-doctor --build makes what follows problems");
  }
  std::vector<machine::problem> problems;
  std::vector<host_compiler> installed = platform::installed_host_compilers(ctx, b.notes);
  const host_compiler* usable = nullptr;
  for (const host_compiler& c : installed) {
    b.installed.push_back(c.name + " " + c.version + " (" + c.root + ")" +
                          (c.compiler.empty()
                               ? std::string(" ") + platform::missing_tools_text
                               : ": " + file_name_of(c.compiler) + " " + c.compiler_version + " (" + c.compiler + ")"));
    if (!usable && !c.compiler.empty()) usable = &c;
  }
  for (const std::string& dir : absolute_entries(ctx, "PATH", ignored)) {
    std::string path = join_path(dir, platform::compiler_file);
    if (!platform::is_executable_file(path)) continue;
    b.compiler = path, b.compiler_version = platform::compiler_version_of(path);
    break;
  }
  std::string quoted = std::string("\"nvcc fatal : Cannot find compiler '") + platform::compiler_file + "' in PATH\"";
  if (b.compiler.empty() && !usable) {
    problems.push_back(
        {"no_host_compiler",
         std::string("no ") + platform::host_compiler_text + " is installed (" + platform::host_compiler_place + ")",
         "",
         "nvcc compiles the host half of every .cu file with the system's C++ compiler: torch's "
         "cpp_extension, setup.py builds of CUDA operators and CMake's CUDA language stop with " +
             quoted,
         platform::host_compiler_install()});
  } else if (b.compiler.empty()) {
    problems.push_back({"compiler_not_on_path",
                        usable->name + " has " + file_name_of(usable->compiler) + " " + usable->compiler_version +
                            ", but " + platform::compiler_file + " is not on PATH",
                        usable->compiler,
                        "nvcc looks for the host compiler on PATH only: a build from a plain prompt (or from an IDE "
                        "started from one) stops with " +
                            quoted,
                        platform::compiler_on_path_fix(*usable)});
  }
  if (std::string arch = ctx.env_value("VSCMD_ARG_TGT_ARCH"); !arch.empty() && !ctx.env("DISTUTILS_USE_SDK")) {
    problems.push_back({"distutils_use_sdk_not_set",
                        "the Visual Studio prompt's environment is set up here (VSCMD_ARG_TGT_ARCH=" + arch +
                            "), but DISTUTILS_USE_SDK is not set",
                        "",
                        "torch's cpp_extension then stops every build: \"It seems that the VC environment is "
                        "activated but DISTUTILS_USE_SDK is not set.\" (setuptools would set it up a second time)",
                        "set DISTUTILS_USE_SDK=1 in this prompt"});
  }
  const machine::toolkit* selected = nullptr;
  for (const machine::toolkit& t : f.toolkits) {
    if (!selected && !t.selected_by.empty()) selected = &t;
  }
  if (selected) {
    std::string version = !b.compiler_version.empty() ? b.compiler_version : usable ? usable->compiler_version : "";
    check_toolkit_for_build(*selected, version, problems, b.notes);
  } else if (f.toolkits.empty()) {
    problems.push_back({"no_toolkit", "no CUDA toolkit is installed", "",
                        "building CUDA code needs nvcc and the toolkit's headers and libraries",
                        "install the CUDA toolkit of the CUDA your framework was built for"});
  } else {
    b.notes.push_back(
        "no toolkit is selected by CUDA_PATH, CUDA_HOME or an nvcc on PATH: a build takes the one it "
        "finds first");
  }
  if (ctx.opts.build) {
    b.problems = problems;
  } else {
    for (const machine::problem& p : problems) b.notes.push_back(p.what + ": " + p.fix);
  }
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
