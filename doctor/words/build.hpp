// The words of building CUDA or cuDNN code from source (cushim-doctor --build): the host compiler
// nvcc needs, on Linux (c++ on PATH) and on Windows (Visual Studio or its Build Tools, whose
// installer records each instance), the Visual Studio prompt torch's builds expect, the toolkit's
// limit on the compiler and its cuDNN. `windows` says which platform's words a sentence takes.
#pragma once

#include <string>

#include <cushim/detail/search/path_list.hpp>
#include "../machine/host_compiler.hpp"
#include "../machine/machine.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// --- The host compiler ---

// "Visual Studio Build Tools 2022", "Visual Studio 2022 Community": an instance by its folders'
// names (...\Microsoft Visual Studio\2022\BuildTools).
inline std::string visual_studio_instance(const std::string& edition, const std::string& year) {
  return edition == "BuildTools" ? "Visual Studio Build Tools " + year : "Visual Studio " + year + " " + edition;
}

inline std::string not_an_instance_record(const std::string& state) {
  return state + " is not an instance record (JSON with an installationPath): not read";
}

// One installed compiler as the report lists it (Windows: Linux records none).
inline std::string installed_compiler(const host_compiler& c) {
  return c.name + " " + c.version + " (" + c.root + ")" +
         (c.compiler.empty() ? " without the C++ tools (no VC\\Tools\\MSVC\\*\\bin\\Hostx64\\x64\\cl.exe)"
                             : ": " + file_name_of(c.compiler) + " " + c.compiler_version + " (" + c.compiler + ")");
}

// What nvcc says without a host compiler (`compiler_file`: c++, cl.exe).
inline std::string cannot_find_compiler(const char* compiler_file) {
  return std::string("\"nvcc fatal : Cannot find compiler '") + compiler_file + "' in PATH\"";
}

// `quoted`: cannot_find_compiler.
inline machine::problem no_host_compiler(bool windows, const std::string& quoted) {
  return warning(
      "no_host_compiler",
      windows ? "no Visual Studio or its Build Tools with the C++ tools is installed (no instance in "
                "%ProgramData%\\Microsoft\\VisualStudio\\Packages\\_Instances)"
              : "no a C++ compiler (c++) is installed (no c++ on PATH)",
      "",
      "nvcc compiles the host half of every .cu file with the system's C++ compiler: torch's "
      "cpp_extension, setup.py builds of CUDA operators and CMake's CUDA language stop with " +
          quoted,
      windows ? "install Visual Studio 2022 Build Tools with the \"Desktop development with C++\" workload (winget "
                "install Microsoft.VisualStudio.2022.BuildTools), then build from its \"x64 Native Tools Command "
                "Prompt for VS 2022\""
              : "install the distribution's C++ compiler (apt-get install g++)");
}

// `usable` has a compiler, which is not on PATH.
inline machine::problem compiler_not_on_path(bool windows, const host_compiler& usable, const char* compiler_file,
                                             const std::string& quoted) {
  return warning("compiler_not_on_path",
                 usable.name + " has " + file_name_of(usable.compiler) + " " + usable.compiler_version + ", but " +
                     compiler_file + " is not on PATH",
                 usable.compiler,
                 "nvcc looks for the host compiler on PATH only: a build from a plain prompt (or from an IDE "
                 "started from one) stops with " +
                     quoted,
                 windows ? "build from the \"x64 Native Tools Command Prompt\" of " + usable.name + ", or run \"" +
                               usable.root +
                               "\\VC\\Auxiliary\\Build\\vcvars64.bat\" in the prompt first; then set "
                               "DISTUTILS_USE_SDK=1 there"
                         : std::string("put the folder of the C++ compiler on PATH"));
}

// `arch`: VSCMD_ARG_TGT_ARCH, which the Visual Studio prompt sets.
inline machine::problem distutils_use_sdk_not_set(const std::string& arch) {
  return warning("distutils_use_sdk_not_set",
                 "the Visual Studio prompt's environment is set up here (VSCMD_ARG_TGT_ARCH=" + arch +
                     "), but DISTUTILS_USE_SDK is not set",
                 "",
                 "torch's cpp_extension then stops every build: \"It seems that the VC environment is "
                 "activated but DISTUTILS_USE_SDK is not set.\" (setuptools would set it up a second time)",
                 "set DISTUTILS_USE_SDK=1 in this prompt");
}

// --- The toolkit the build tools select ---

inline machine::problem no_toolkit() {
  return warning("no_toolkit", "no CUDA toolkit is installed", "",
                 "building CUDA code needs nvcc and the toolkit's headers and libraries",
                 "install the CUDA toolkit of the CUDA your framework was built for");
}

inline std::string no_toolkit_selected() {
  return "no toolkit is selected by CUDA_PATH, CUDA_HOME or an nvcc on PATH: a build takes the one it "
         "finds first";
}

inline std::string no_nvcc_on_path() {
  return "no nvcc on PATH (the toolkits' bin folders are not on it): a build from this prompt finds "
         "no nvcc; cushim-doctor --build makes what follows problems";
}

// cl.exe `version` (_MSC_VER `msc`) is at or past the toolkit's `limit` (host_config.h, here `path`).
inline machine::problem host_compiler_unsupported(const machine::toolkit& t, const std::string& version, int msc,
                                                  int limit, const std::string& path) {
  return warning(
      "host_compiler_unsupported",
      "cl.exe " + version + " (_MSC_VER " + std::to_string(msc) + ") is newer than the CUDA " + t.version +
          " toolkit " + t.path + " accepts (_MSC_VER below " + std::to_string(limit) + ")",
      path,
      "its include\\crt\\host_config.h stops every nvcc compile with \"unsupported Microsoft Visual Studio "
      "version!\"",
      "install an older MSVC toolset beside it (Visual Studio Installer, Individual components) and select it "
      "with vcvars64.bat -vcvars_ver=14." +
          std::to_string(limit % 100 - 1) + ", or use a newer CUDA toolkit");
}

inline std::string toolkit_without_cudnn(const std::string& toolkit) {
  return "the toolkit " + toolkit +
         " has no cuDNN copied in: a build that needs cuDNN takes it from "
         "CUDNN_INCLUDE_DIR and CUDNN_LIBRARY (or CUDNN_PATH)";
}

// "the toolkit X has cuDNN 9.1.0's headers (...)"; `c`: the cuDNN copied into it.
inline std::string toolkit_has_cudnn(const std::string& toolkit, const machine::cudnn_install& c) {
  return "the toolkit " + toolkit + " has cuDNN " +
         (c.header.empty() ? std::string("without headers") : c.header_version + "'s headers (" + c.header + ")");
}

// `has`: toolkit_has_cudnn; `links_to`: the DLL its import library links to.
inline std::string with_import_library(const std::string& has, const std::string& import_library,
                                       const std::string& links_to) {
  return has + " and its import library " + import_library + " (for " + links_to + ")";
}

// Windows: the toolkit's cuDNN has no lib\x64\cudnn.lib (in `lib`).
inline machine::problem cudnn_without_import_library(const std::string& toolkit, const std::string& lib) {
  return warning("cudnn_incomplete",
                 "the toolkit " + toolkit + " has cuDNN's headers and DLLs but no import library (lib\\x64\\cudnn.lib)",
                 lib,
                 "a source build compiles against the headers and then fails to link cuDNN (\"LINK : fatal "
                 "error LNK1181: cannot open input file 'cudnn.lib'\")",
                 "copy the lib\\x64 folder of the same cuDNN archive into " + lib);
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
