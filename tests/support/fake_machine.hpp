// A whole machine laid out under a temp folder for discovery (<cushim/machine.hpp>): the system's
// fixed places under CUSHIM_DISCOVERY_ROOT (usr/local/cuda-*, usr/bin, usr/lib/python3, etc),
// a home folder, and the environment a shell there would have. Its Python environments, toolkits
// and wheels imitate the real layouts of environments-2026-12.md: torch/version.py as torch
// writes it, METADATA and RECORD as pip does, the nvidia wheels' library folders, a toolkit's
// version.json, a cuDNN archive's files copied into a toolkit. The library files are the ELF
// fixtures of tests/discovery/fixtures.cmake.
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/temp_tree.hpp"

namespace test_support {

inline std::string discovery_fixture(const std::string& folder, const std::string& file) {
  return std::string(CUSHIM_DISCOVERY_FIXTURE_DIR) + "/" + folder + "/" + file;
}

// The cuDNN 9 sub-libraries every 9.x release has, and the one the 9.2x releases add.
inline const std::vector<std::string> cudnn9_sublibraries = {
    "graph", "ops", "cnn", "adv", "heuristic", "engines_precompiled", "engines_runtime_compiled"};

class fake_machine {
 public:
  temp_tree tree;
  environment env;

  fake_machine() {
    tree.make_dirs("home/user/proj");
    tree.make_dirs("usr/bin");
    link_c_library();
    env = {{"HOME", home()}, {"PATH", tree.path("usr/bin")}, {"CUSHIM_DISCOVERY_ROOT", tree.root()}};
  }

  std::string root() const { return tree.root(); }
  std::string home() const { return tree.path("home/user"); }
  std::string path(const std::string& relative) const { return tree.path(relative); }

  // A file a shell would run (its content does not matter: nothing runs it).
  std::string executable(const std::string& relative) const {
    std::string file = tree.write_file(relative, "#!/bin/sh\nexit 0\n");
    ::chmod(file.c_str(), 0755);
    return file;
  }

  std::string write(const std::string& relative, const std::string& text) const {
    return tree.write_file(relative, text);
  }

  std::string copy(const std::string& from, const std::string& relative) const {
    return tree.copy_file(from, relative);
  }

  // A venv as python -m venv makes one; returns its site-packages.
  std::string venv(const std::string& relative, const std::string& version) const {
    std::string series = version.substr(0, version.rfind('.'));
    write(relative + "/pyvenv.cfg", "home = " + path("usr/bin") + "\ninclude-system-site-packages = false\nversion = " +
                                        version + "\nexecutable = " + path("usr/bin/python" + series) + "\n");
    executable(relative + "/bin/python");
    executable(relative + "/bin/python3");
    return tree.make_dirs(relative + "/lib/python" + series + "/site-packages");
  }

  // A conda environment: conda-meta says its Python; returns its site-packages.
  std::string conda_env(const std::string& relative, const std::string& version) const {
    std::string series = version.substr(0, version.rfind('.'));
    write(relative + "/conda-meta/python-" + version + "-h955ad1f_0.json", "{}\n");
    write(relative + "/conda-meta/history", "");
    executable(relative + "/bin/python");
    return tree.make_dirs(relative + "/lib/python" + series + "/site-packages");
  }

  // Debian's Python: /usr/bin/python3.X, its patchlevel.h, and the folders its packages are in;
  // returns /usr/lib/python3/dist-packages.
  std::string system_python(const std::string& version) const {
    std::string series = version.substr(0, version.rfind('.'));
    executable("usr/bin/python" + series);
    tree.symlink("python" + series, "usr/bin/python3");
    write("usr/include/python" + series + "/patchlevel.h", "#define PY_VERSION \"" + version + "\"\n");
    tree.make_dirs("usr/lib/python" + series);
    return tree.make_dirs("usr/lib/python3/dist-packages");
  }

  // A distribution as pip installs it: <name>-<version>.dist-info with METADATA and RECORD.
  std::string dist_info(const std::string& site, const std::string& name, const std::string& version,
                        const std::vector<std::string>& requires_dist = {},
                        const std::vector<std::string>& record = {}) const {
    std::string folder = name;
    for (char& c : folder) c = c == '-' ? '_' : c;
    std::string dir = site + "/" + folder + "-" + version + ".dist-info";
    std::string metadata = "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n";
    for (const std::string& r : requires_dist) metadata += "Requires-Dist: " + r + "\n";
    write_abs(dir + "/METADATA", metadata + "\nThe package's description.\n");
    std::string lines;
    for (const std::string& f : record) lines += f + ",sha256=0,1\n";
    write_abs(dir + "/RECORD", lines + folder + "-" + version + ".dist-info/METADATA,,\n");
    return dir;
  }

  // torch/version.py as torch 2.2 and later write it (typed); `cuda` and `hip` are Python
  // literals ("'12.4'", "None").
  void torch(const std::string& site, const std::string& version, const std::string& cuda, const std::string& hip,
             const std::string& native_fixture, const std::vector<std::string>& requires_dist = {}) const {
    write_abs(site + "/torch/version.py",
              "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
              "__version__ = '" +
                  version + "'\ndebug = False\ncuda: Optional[str] = " + cuda +
                  "\ngit_version = '0123456789abcdef0123456789abcdef01234567'\nhip: Optional[str] = " + hip + "\n");
    write_abs(site + "/torch/__init__.py", "");
    if (!native_fixture.empty()) {
      std::filesystem::create_directories(site + "/torch/lib");
      std::filesystem::copy_file(discovery_fixture(native_fixture, "libtorch_cuda.so"),
                                 site + "/torch/lib/libtorch_cuda.so");
    }
    dist_info(site, "torch", version, requires_dist);
  }

  // An nvidia cuDNN 9 wheel: its library files in <site>/<lib_dir>, its dist-info and RECORD.
  // The files are the 9.1.0 fixtures; the wheel's RECORD says whose they are.
  void cudnn9_wheel(const std::string& site, const std::string& name, const std::string& version,
                    const std::string& lib_dir, bool tensor_ir = true, const std::string& fixture = "cudnn9") const {
    std::vector<std::string> files = {"libcudnn.so.9"};
    for (const std::string& sub : cudnn9_sublibraries) files.push_back("libcudnn_" + sub + ".so.9");
    if (tensor_ir) files.push_back("libcudnn_engines_tensor_ir.so.9");
    std::vector<std::string> record;
    for (const std::string& f : files) {
      std::filesystem::create_directories(site + "/" + lib_dir);
      std::filesystem::copy_file(discovery_fixture(fixture, f), site + "/" + lib_dir + "/" + f);
      record.push_back(lib_dir + "/" + f);
    }
    dist_info(site, name, version, {}, record);
  }

  // A wheel with one library of a fixture folder (nvidia-cuda-runtime-cu12: libcudart.so.12).
  void library_wheel(const std::string& site, const std::string& name, const std::string& version,
                     const std::string& lib_dir, const std::string& folder,
                     const std::vector<std::string>& files) const {
    std::vector<std::string> record;
    for (const std::string& f : files) {
      std::filesystem::create_directories(site + "/" + lib_dir);
      std::filesystem::copy_file(discovery_fixture(folder, f), site + "/" + lib_dir + "/" + f);
      record.push_back(lib_dir + "/" + f);
    }
    dist_info(site, name, version, {}, record);
  }

  // torch 2.5.1+cu124 with the wheels it pins (nvidia-cudnn-cu12 9.1.0.70, the CUDA 12.4 runtime
  // and cuBLAS), as pip installs it.
  void torch_cu124(const std::string& site) const {
    torch(site, "2.5.1+cu124", "'12.4'", "None", "torch_cu124",
          {"nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == \"x86_64\"",
           "nvidia-cublas-cu12==12.4.5.8; platform_system == \"Linux\" and platform_machine == \"x86_64\"",
           "nvidia-cuda-runtime-cu12==12.4.127; platform_system == \"Linux\" and platform_machine == \"x86_64\""});
    cudnn9_wheel(site, "nvidia-cudnn-cu12", "9.1.0.70", "nvidia/cudnn/lib", false);
    library_wheel(site, "nvidia-cuda-runtime-cu12", "12.4.127", "nvidia/cuda_runtime/lib", "cuda12",
                  {"libcudart.so.12"});
    library_wheel(site, "nvidia-cublas-cu12", "12.4.5.8", "nvidia/cublas/lib", "cuda12",
                  {"libcublas.so.12", "libcublasLt.so.12"});
  }

  // A toolkit in /usr/local/cuda-<major.minor> with its version.json and nvcc.
  std::string toolkit(const std::string& version) const {
    std::string series = version.substr(0, version.rfind('.'));
    std::string dir = "usr/local/cuda-" + series;
    write(dir + "/version.json", "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"" +
                                     version +
                                     "\"\n   },\n   \"cuda_cudart\" : {\n      \"name\" : \"CUDA Runtime (cudart)\",\n"
                                     "      \"version\" : \"" +
                                     series + ".127\"\n   }\n}\n");
    executable(dir + "/bin/nvcc");
    write(dir + "/include/cuda_runtime_api.h", "#define CUDART_VERSION " + cudart_version(version) + "\n");
    std::string major = series.substr(0, series.find('.'));
    if (std::filesystem::exists(discovery_fixture("cuda" + major, "libcudart.so." + major))) {  // its runtime
      copy(discovery_fixture("cuda" + major, "libcudart.so." + major), dir + "/lib64/libcudart.so." + series + ".127");
      tree.symlink("libcudart.so." + series + ".127", dir + "/lib64/libcudart.so." + major);
    }
    return path(dir);
  }

  // cuDNN 8.5.0 for CUDA 11 copied into a toolkit as its archive's "cp" instructions do:
  // include/cudnn*.h (of `header_version`) and lib64/libcudnn*.so.8.5.0 with their links.
  void toolkit_cudnn8(const std::string& toolkit_dir, const std::string& header_version) const {
    std::string major = header_version.substr(0, 1);
    std::string rest = header_version.substr(2);
    write_abs(toolkit_dir + "/include/cudnn_version.h",
              "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR " + major +
                  "\n#define CUDNN_MINOR " + rest.substr(0, rest.find('.')) + "\n#define CUDNN_PATCHLEVEL " +
                  rest.substr(rest.find('.') + 1) +
                  "\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n#endif\n");
    write_abs(toolkit_dir + "/include/cudnn.h", "#include \"cudnn_version.h\"\n");
    std::filesystem::create_directories(toolkit_dir + "/lib64");
    for (const char* name : {"libcudnn", "libcudnn_ops_infer", "libcudnn_ops_train", "libcudnn_cnn_infer",
                             "libcudnn_cnn_train", "libcudnn_adv_infer", "libcudnn_adv_train"}) {
      std::string base = toolkit_dir + "/lib64/" + name;
      std::filesystem::copy_file(discovery_fixture("cudnn8", std::string(name) + ".so.8"), base + ".so.8.5.0");
      std::filesystem::create_symlink(std::string(name) + ".so.8.5.0", base + ".so.8");
      std::filesystem::create_symlink(std::string(name) + ".so.8", base + ".so");
    }
  }

  // /etc/ld.so.cache of these folders (absolute inside the machine: "/usr/lib/x86_64-linux-gnu"), as
  // ldconfig writes it for the machine's root; the files' soname links must be there.
  void ld_so_cache(const std::vector<std::string>& folders) const {
    std::string conf;
    for (const std::string& f : folders) conf += f + "\n";
    write("etc/ld.so.conf", conf);
    std::string command = "/sbin/ldconfig -X -r " + root() + " -C /etc/ld.so.cache -f /etc/ld.so.conf";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
  }

  // The environment as NAME=value entries, for machine::options.
  std::vector<std::string> environment_entries() const {
    std::vector<std::string> entries;
    for (const auto& [name, value] : env) entries.push_back(name + "=" + value);
    return entries;
  }

 private:
  // CUDART_VERSION of a toolkit release: "12.4.1" -> 12040.
  static std::string cudart_version(const std::string& release) {
    int major = std::atoi(release.c_str()), minor = std::atoi(release.c_str() + release.find('.') + 1);
    return std::to_string(major * 1000 + minor * 10);
  }

  // The C library every fixture library needs, where this machine's system folders have it: the
  // machine's own /lib stands for the fixtures' system, as on every real machine it is there.
  void link_c_library() const {
    for (const char* file : {"lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"}) {
      if (std::filesystem::exists(std::string("/") + file)) tree.symlink(std::string("/") + file, file);
    }
  }

  void write_abs(const std::string& file, const std::string& text) const {
    tree.write_file(file.substr(tree.root().size() + 1), text);
  }
};

}  // namespace test_support
