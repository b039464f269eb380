// The article's machine (the Windows reader), laid out in a temp folder for cushim-doctor.exe:
// the driver 522.06 for CUDA 11.8 (nvcuda.dll, FileVersion 31.0.15.2206) with its NVML (one RTX
// 3060) in <tree>\Windows\System32 (CUSHIM_DISCOVERY_ROOT stands for the Windows folder), cuDNN
// 8.5.0.96 of the cuda11 archive merged into CUDA\v11.8 with zlibwapi.dll beside it, conda's base
// (Python 3.11, no framework) and torch 2.0.1+cu118 in its environment torch201, PyCharm 2023.2's
// interpreter table with both, and a PyCharm project. And the user's saved variables
// (HKCU\Environment), set for one test and put back as they were: the Wine prefix is every test's.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "win_probe.hpp"

namespace win_test {

class article_machine {
 public:
  temp_dir tree;
  std::string windows, cuda, bin, base, env_dir, lib, project;
  std::map<std::string, std::string> env;

  article_machine() {
    windows = tree.path("Windows");
    tree.copy(fixture("article_driver", "nvcuda.dll"), "Windows\\System32\\nvcuda.dll");
    tree.copy(fixture("article_driver", "nvml.dll"), "Windows\\System32\\nvml.dll");
    cuda = tree.make_dirs("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8");
    bin = cuda + "\\bin";
    std::string bin_relative = relative(bin);
    tree.copy(fixture("cuda118", "cudart64_110.dll"), bin_relative + "\\cudart64_110.dll");
    tree.copy_folder(fixture_folder("cudnn8_5"), bin_relative);
    tree.copy_folder(fixture_folder("cudnn8_deps"), bin_relative);
    write(bin + "\\nvcc.exe", "MZ");
    write(cuda + "\\include\\cudnn_version.h",
          "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 0\n");
    write(cuda + "\\include\\cuda_runtime_api.h", "#define CUDART_VERSION 11080\n");
    write(cuda + "\\version.json", "{\n  \"cuda\" : { \"name\" : \"CUDA SDK\", \"version\" : \"11.8.0\" }\n}\n");
    base = tree.path("Users\\user\\miniconda3");
    write(base + "\\conda-meta\\python-3.11.5-h966fe2a_0.json", "{}\n");
    write(base + "\\python.exe", "MZ");
    env_dir = tree.make_dirs("Users\\user\\miniconda3\\envs\\torch201");
    write(env_dir + "\\conda-meta\\python-3.10.13-h4de0772_0.json", "{}\n");
    write(env_dir + "\\python.exe", "MZ");
    std::string site = "Users\\user\\miniconda3\\envs\\torch201\\Lib\\site-packages";
    lib = tree.make_dirs(site + "\\torch\\lib");
    write(lib + "\\..\\version.py", "__version__ = '2.0.1+cu118'\ncuda = '11.8'\nhip = None\n");
    tree.copy(fixture_folder("discovery") + "\\c10.dll", site + "\\torch\\lib\\c10.dll");
    tree.copy(fixture_folder("discovery\\torch_cu118") + "\\torch_cuda.dll", site + "\\torch\\lib\\torch_cuda.dll");
    tree.copy_folder(fixture_folder("cudnn8_good"), site + "\\torch\\lib");
    tree.copy_folder(fixture_folder("cudnn8_deps"), site + "\\torch\\lib");
    write(tree.path(site + "\\torch-2.0.1+cu118.dist-info\\METADATA"),
          "Metadata-Version: 2.1\nName: torch\nVersion: 2.0.1+cu118\n\n");
    // PyCharm 2023.2's interpreters, one with its home under $USER_HOME$ as PyCharm writes it.
    write(tree.path("Users\\user\\AppData\\Roaming\\JetBrains\\PyCharm2023.2\\options\\jdk.table.xml"),
          "<application>\n  <component name=\"ProjectJdkTable\">\n    <jdk version=\"2\">\n"
          "      <name value=\"Python 3.10 (torch201)\" />\n      <type value=\"Python SDK\" />\n"
          "      <version value=\"Python 3.10.13\" />\n"
          "      <homePath value=\"$USER_HOME$/miniconda3/envs/torch201/python.exe\" />\n"
          "      <roots>\n        <classPath>\n          <root type=\"composite\">\n"
          "            <root url=\"file://$USER_HOME$/miniconda3/envs/torch201/DLLs\" type=\"simple\" />\n"
          "          </root>\n        </classPath>\n      </roots>\n"
          "      <additional SDK_UUID=\"0b7a6b47-91f1-4a2e-9c1c-6d6a2b1c0e51\" />\n    </jdk>\n"
          "    <jdk version=\"2\">\n      <name value=\"Python 3.11 (base)\" />\n      <type value=\"Python SDK\" />\n"
          "      <homePath value=\"" +
              base + "\\python.exe\" />\n    </jdk>\n  </component>\n</application>\n");
    project = tree.make_dirs("Users\\user\\PycharmProjects\\cudnn_test");
    pycharm_interpreter("Python 3.10 (torch201)");
    env = {{"CUSHIM_DISCOVERY_ROOT", windows},
           {"CUDA_PATH", cuda},
           {"CUDA_PATH_V11_8", cuda},
           {"PYENV_ROOT", ""},
           {"ProgramFiles", tree.path("Program Files")},
           {"ProgramData", tree.make_dirs("ProgramData")},
           {"USERPROFILE", tree.path("Users\\user")},
           {"LOCALAPPDATA", tree.make_dirs("Users\\user\\AppData\\Local")},
           {"APPDATA", tree.path("Users\\user\\AppData\\Roaming")}};
  }

  // The project's interpreter, as PyCharm writes .idea\misc.xml.
  void pycharm_interpreter(const std::string& name) const {
    write(project + "\\.idea\\misc.xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<project version=\"4\">\n"
          "  <component name=\"Black\">\n    <option name=\"sdkName\" value=\"" +
              name +
              "\" />\n  </component>\n  <component name=\"ProjectRootManager\" version=\"2\" project-jdk-name=\"" +
              name + "\" project-jdk-type=\"Python SDK\" />\n</project>\n");
  }

  // cuDNN 8.5.0.96's archive unpacked by hand: C:\cudnn\8.5.0.96\cuda\{bin, include, lib\x64};
  // returns its bin folder.
  std::string unpacked_cudnn(bool with_zlib) const {
    std::string root = tree.make_dirs("cudnn\\8.5.0.96\\cuda");
    tree.copy_folder(fixture_folder("cudnn8_5"), relative(root) + "\\bin");
    for (const char* dll : {"cublas64_11.dll", "cublasLt64_11.dll", "zlibwapi.dll"}) {
      if (with_zlib || std::string(dll) != "zlibwapi.dll") {
        tree.copy(fixture_folder("cudnn8_deps") + "\\" + dll, relative(root) + "\\bin\\" + dll);
      }
    }
    write(root + "\\include\\cudnn_version.h",
          "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 0\n");
    tree.copy(std::string(CUSHIM_IMPLIB_DIR) + "/cudnn8_5/libcudnn64_8.dll.a",
              relative(root) + "\\lib\\x64\\cudnn.lib");
    return root + "\\bin";
  }

  static void write(const std::string& path, const std::string& text) {
    fs::path file(widen(path));
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  }

  static std::string fixture_folder(const std::string& folder) {
    std::string path = std::string(CUSHIM_FIXTURE_DIR) + "/" + folder;
    for (char& c : path) c = c == '/' ? '\\' : c;
    return path;
  }

  std::string relative(const std::string& path) const { return path.substr(tree.path().size() + 1); }
};

// Values of HKCU\Environment for one test, each put back (or removed) at the end of the scope.
class saved_user_variables {
 public:
  saved_user_variables() {
    if (::RegCreateKeyExW(HKEY_CURRENT_USER, L"Environment", 0, nullptr, 0, KEY_ALL_ACCESS, nullptr, &key_, nullptr) !=
        ERROR_SUCCESS) {
      throw std::runtime_error("HKCU\\Environment cannot be opened");
    }
  }
  ~saved_user_variables() {
    for (const auto& [name, old] : before_) {
      if (old.first == REG_NONE) {
        ::RegDeleteValueW(key_, name.c_str());
      } else {
        ::RegSetValueExW(key_, name.c_str(), 0, old.first, old.second.data(), DWORD(old.second.size()));
      }
    }
    ::RegCloseKey(key_);
  }
  saved_user_variables(const saved_user_variables&) = delete;
  saved_user_variables& operator=(const saved_user_variables&) = delete;

  void set_string(const std::string& name, const std::string& value, DWORD type = REG_SZ) {
    std::wstring text = to_utf16(value);
    remember(name);
    ::RegSetValueExW(key_, to_utf16(name).c_str(), 0, type, reinterpret_cast<const BYTE*>(text.c_str()),
                     DWORD((text.size() + 1) * sizeof(wchar_t)));
  }
  void set_dword(const std::string& name, DWORD value) {
    remember(name);
    ::RegSetValueExW(key_, to_utf16(name).c_str(), 0, REG_DWORD, reinterpret_cast<const BYTE*>(&value), sizeof value);
  }

 private:
  void remember(const std::string& name) {
    std::wstring wide = to_utf16(name);
    if (before_.count(wide)) return;
    DWORD type = REG_NONE, bytes = 0;
    if (::RegQueryValueExW(key_, wide.c_str(), nullptr, &type, nullptr, &bytes) != ERROR_SUCCESS) {
      before_[wide] = {REG_NONE, {}};
      return;
    }
    std::vector<BYTE> data(bytes);
    ::RegQueryValueExW(key_, wide.c_str(), nullptr, &type, data.data(), &bytes);
    before_[wide] = {type, data};
  }

  HKEY key_ = nullptr;
  std::map<std::wstring, std::pair<DWORD, std::vector<BYTE>>> before_;
};

}  // namespace win_test
