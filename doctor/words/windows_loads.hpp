// The words of a framework's load on Windows (stacks/windows/): the OSError Python prints, torch's
// load of every DLL in torch\lib, an extension module that does not load, a library a framework
// loads by name at run time (Paddle's cuDNN), cuDNN's by-name loads next to the folders
// os.add_dll_directory adds, and cv2's BINARIES_PATHS.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include <cushim/detail/search/path_list.hpp>
#include "../machine/machine.hpp"
#include "../machine/text_values.hpp"
#include "cudnn.hpp"
#include "loads.hpp"
#include "problem.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// The Windows errors a failed load stands for, as Python's OSError prints them.
inline std::string win_error_126() { return "[WinError 126] The specified module could not be found."; }
inline std::string win_error_127() { return "[WinError 127] The specified procedure could not be found."; }
inline std::string win_error_193() { return "[WinError 193] %1 is not a valid Win32 application."; }

// How cuDNN's by-name loads are reached from a process whose DLLs came from `user_dirs`, the
// folders it added with os.add_dll_directory (`framework` loads so); the sentence goes on after it.
inline std::string add_dll_directory_context(const std::string& framework, const std::vector<std::string>& user_dirs) {
  return "LoadLibraryExW with 0x1100 (as " + framework +
         " loads) finds DLLs in the folders it added with os.add_dll_directory (" + joined(user_dirs) +
         "), but a load by bare name does not search them:";
}

// A file a by-name load does not find, where it is all the same.
inline std::string in_added_folder(const std::string& there) {
  return "(" + there + " is there, in a folder added with os.add_dll_directory)";
}

// torch's own fix of a cuDNN sub-library it does not find by name.
inline std::string into_torch_lib(const std::string& torch_lib) {
  return ", or copy cuDNN's DLLs into " + torch_lib + ", whose DLLs torch loads itself first";
}

// `dll` in `torch_lib` does not load (`error`: the OSError's); torch adds `user_dirs`.
inline machine::problem torch_dll_fails(const machine::framework& fw, const missing_dependency& m,
                                        const std::string& error, const std::string& dll, const std::string& torch_lib,
                                        const std::vector<std::string>& user_dirs) {
  std::string fix = known_dependency_fix(m.name);
  return warning(
      "import_fails",
      "import " + fw.name + " fails: OSError: " + error + " Error loading \"" + dll + "\" or one of its dependencies.",
      dll, "torch loads every DLL in " + torch_lib + " first, in name order; " + describe(m),
      !fix.empty() ? fix
                   : "put " + file_name_of(m.name) + " into " + torch_lib + " or into one of the folders torch adds (" +
                         joined(user_dirs) + "); reinstalling " + fw.distribution + " " + fw.version +
                         " restores the files it ships");
}

// Its extension module (or the DLL it is) does not load (`error`: the OSError's).
inline machine::problem extension_fails(const machine::framework& fw, const missing_dependency& m,
                                        const std::string& error) {
  std::string fix = known_dependency_fix(m.name);
  return warning("import_fails", fw.name + " cannot load " + file_name_of(fw.native_file) + ": " + error, m.needed_by(),
                 describe(m),
                 !fix.empty()
                     ? fix
                     : "put " + file_name_of(m.name) + " beside " + file_name_of(fw.native_file) +
                           " or install what provides it; reinstalling " +
                           (fw.distribution.empty() ? fw.name : fw.distribution) + " restores the files it ships");
}

// Its files name `name` as what it loads by name when it first uses the GPU; that load looked in
// `searched`.
inline machine::problem by_name_load_fails(const machine::framework& fw, const std::string& name,
                                           const std::vector<std::string>& searched) {
  return warning("by_name_load_fails", fw.name + " loads " + name + " by name at run time, and that load finds nothing",
                 "",
                 fw.name + "'s files name " + name +
                     " as the library it loads when it first uses the GPU; a load by bare "
                     "name searches " +
                     by_name_places(true) + ": " + joined(searched),
                 "install the CUDA " + fw.cuda + " runtime and cuDNN " + fw.cudnn + " " + fw.name +
                     " was built for, and put their bin folders on PATH");
}

// --- Paddle ---

inline std::string built_with_toolkit(const std::string& bin) { return bin + " (the toolkit it was built with)"; }

// Paddle's own search for its cuDNN (`name`) looked in `searched` and found nothing.
inline machine::problem paddle_cudnn_not_found(const machine::framework& fw, const std::string& name,
                                               const std::vector<std::string>& searched) {
  return warning("by_name_load_fails",
                 "paddle loads " + name + " by name at its first GPU call, and that load finds nothing", fw.native_file,
                 "Paddle " + fw.version + " was built with cuDNN " + fw.cudnn +
                     " and loads it itself: from FLAGS_cudnn_dir, " +
                     "then by bare name, then from the toolkit it was built with; it looks in: " + joined(searched) +
                     ". Every GPU operation then fails with \"The third-party dynamic library (" + name +
                     ") that Paddle depends on is not configured correctly. (error code is 126)\"",
                 "put the bin folder of a cuDNN " + leading_parts(fw.cudnn, 2) + " for CUDA " +
                     leading_parts(fw.cuda, 1) + " (the one with " + name + ") on PATH, or set FLAGS_cudnn_dir to it");
}

// --- OpenCV ---

inline std::string binaries_path_unread(const std::string& config, const std::string& unread) {
  return config + ": a value of BINARIES_PATHS the doctor does not read (" + unread +
         "): the folders before it are used";
}
inline std::string binaries_path_missing(const std::string& config, const std::string& dir) {
  return config + " names " + dir + " in BINARIES_PATHS, which does not exist";
}
inline std::string no_native_module(const std::string& cv2) {
  return cv2 + " has no native module (cv2.pyd, or python-X.Y\\cv2*.pyd of a source build)";
}
inline std::string name_of(const std::string& file) { return "the name of " + file; }

// cv2 does not load because `missing`, one of CUDA's libraries, is not in BINARIES_PATHS.
inline std::string opencv_cuda_fix(const std::string& missing, const std::string& config,
                                   const std::vector<std::string>& binaries) {
  return "install the CUDA toolkit OpenCV was built with (the one with " + missing +
         ") and set CUDA_PATH to it: cv2's loader adds the " + "folders of " + config + "'s BINARIES_PATHS (" +
         joined(binaries) + ") and no other";
}

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
