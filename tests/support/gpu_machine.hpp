// The machine of gpu-machine-2026-12-04.md as files under a temp folder: one H200 behind the driver
// 580.159.04 (mounted into the container at /usr/local/nvidia/lib64, its NVML beside it, a second
// libcuda in /usr/lib), the CUDA 13.0 toolkit in /usr/local/cuda-13.0 without version.json (its
// link-time stub and the forward-compatibility package 580.95.05 in it), the distribution's cuDNN
// 9.14.0 (dpkg's libcudnn9-cuda-13) in /usr/lib/x86_64-linux-gnu, and the venv /opt/torch/.venv,
// which python3 on PATH starts, with torch 2.11.0+cu130, JAX's CUDA 13 plugin, CuPy 14.2.0,
// onnxruntime 1.30.0 (a CPU build) and the CUDA 13 wheels, nvidia-cudnn-cu13 9.19.0.56 among them.
// The driver, NVML and the toolkit's runtime are fixtures that answer as the real ones did there
// (one GPU), so the doctor's own loads see a GPU that works.
#pragma once

#include <string>

#include "support/fake_machine.hpp"

namespace test_support {

struct gpu_machine_layout {
  bool system_cudnn = true;      // the distribution's cuDNN 9.14.0, older than the wheel's
  bool onnxruntime_gpu = false;  // onnxruntime-gpu for CUDA 13 instead of the CPU build
};

class gpu_machine {
 public:
  explicit gpu_machine(fake_machine& m, gpu_machine_layout layout = {}) : m_(m) {
    driver();
    toolkit();
    if (layout.system_cudnn) system_cudnn();
    std::vector<std::string> cache = {"/usr/local/nvidia/lib64", "/usr/lib",
                                      "/usr/local/cuda/targets/x86_64-linux/lib"};
    if (layout.system_cudnn) cache.push_back("/usr/lib/x86_64-linux-gnu");
    m.ld_so_cache(cache);
    venv(layout.onnxruntime_gpu);
    m.env["LD_LIBRARY_PATH"] = m.path("usr/local/nvidia/lib64") + ":" + m.path("usr/local/nvidia/lib");
    m.env["PATH"] = m.path("opt/torch/.venv/bin") + ":" + m.path("usr/bin");
  }

  std::string venv_path() const { return m_.path("opt/torch/.venv"); }
  std::string site() const { return venv_path() + "/lib/python3.12/site-packages"; }

 private:
  // A library file with its soname link (and the development link), as a package installs it.
  void installed(const std::string& fixture, const std::string& dir, const std::string& real,
                 const std::string& soname) {
    m_.copy(fixture, dir + "/" + real);
    m_.tree.symlink(real, dir + "/" + soname);
  }

  void driver() {
    std::string dir = "usr/local/nvidia/lib64";
    installed(discovery_fixture("driver_cuda130", "libcuda.so.1"), dir, "libcuda.so.580.159.04", "libcuda.so.1");
    installed(discovery_fixture("driver_cuda130", "libnvidia-ml.so.1"), dir, "libnvidia-ml.so.580.159.04",
              "libnvidia-ml.so.1");
    m_.tree.make_dirs("usr/local/nvidia/lib");
    installed(discovery_fixture("driver_cuda130", "libcuda.so.1"), "usr/lib", "libcuda.so.580.159.04", "libcuda.so.1");
    m_.tree.symlink("libcuda.so.1", "usr/lib/libcuda.so");
  }

  void toolkit() {
    std::string root = "usr/local/cuda-13.0", lib = root + "/targets/x86_64-linux/lib";
    m_.executable(root + "/bin/nvcc");
    m_.write(root + "/include/cuda_runtime_api.h", "#define CUDART_VERSION 13000\n");
    installed(discovery_fixture("gpu_runtime13", "libcudart.so.13"), lib, "libcudart.so.13.0.96", "libcudart.so.13");
    m_.tree.symlink("libcudart.so.13", lib + "/libcudart.so");
    m_.copy(discovery_fixture("driver_cuda118", "libcuda.so.1"), lib + "/stubs/libcuda.so");
    m_.tree.symlink("targets/x86_64-linux/lib", root + "/lib64");
    installed(discovery_fixture("driver_cuda130", "libcuda.so.1"), root + "/compat", "libcuda.so.580.95.05",
              "libcuda.so.1");
    m_.tree.symlink("libcuda.so.1", root + "/compat/libcuda.so");
    m_.tree.symlink("cuda-13.0", "usr/local/cuda");
  }

  void system_cudnn() {
    std::string dir = "usr/lib/x86_64-linux-gnu", list;
    auto install = [&](const std::string& name) {
      installed(discovery_fixture("cudnn9_14", name + ".so.9"), dir, name + ".so.9.14.0", name + ".so.9");
      list += "/" + dir + "/" + name + ".so.9.14.0\n/" + dir + "/" + name + ".so.9\n";
    };
    install("libcudnn");
    for (const std::string& sub : cudnn9_sublibraries) install("libcudnn_" + sub);
    m_.write("var/lib/dpkg/info/libcudnn9-cuda-13.list", "/.\n/usr\n/usr/lib\n/" + dir + "\n" + list);
    m_.write("var/lib/dpkg/status",
             "Package: libc6\nStatus: install ok installed\nVersion: 2.39-0ubuntu8.6\n\n"
             "Package: libcudnn9-cuda-13\nStatus: install ok installed\nArchitecture: amd64\n"
             "Version: 9.14.0.64-1\nDescription: cuDNN runtime libraries for CUDA 13\n");
  }

  void venv(bool onnxruntime_gpu) {
    std::string site = m_.venv("opt/torch/.venv", "3.12.3");
    m_.torch(site, "2.11.0+cu130", "'13.0'", "None", "torch_cu130_wheels");
    m_.cudnn9_wheel(site, "nvidia-cudnn-cu13", "9.19.0.56", "nvidia/cudnn/lib", false, "cudnn9_19");
    m_.write(site.substr(m_.root().size() + 1) + "/nvidia/cudnn/include/cudnn_version.h",
             "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
    std::string cu13 = "nvidia/cu13/lib";
    m_.library_wheel(site, "nvidia-cuda-runtime", "13.0.96", cu13, "cuda13", {"libcudart.so.13"});
    m_.library_wheel(site, "nvidia-cublas", "13.1.0.3", cu13, "cuda13", {"libcublas.so.13", "libcublasLt.so.13"});
    m_.library_wheel(site, "nvidia-cuda-nvrtc", "13.0.88", cu13, "cuda13",
                     {"libnvrtc.so.13", "libnvrtc-builtins.so.13.0"});
    m_.library_wheel(site, "nvidia-cufft", "12.0.0.61", cu13, "cuda13", {"libcufft.so.12"});
    m_.library_wheel(site, "nvidia-curand", "10.4.0.35", cu13, "cuda13", {"libcurand.so.10"});
    m_.library_wheel(site, "nvidia-cusolver", "12.0.4.66", cu13, "cuda13", {"libcusolver.so.12"});
    m_.library_wheel(site, "nvidia-cusparse", "12.6.3.3", cu13, "cuda13", {"libcusparse.so.12"});
    m_.library_wheel(site, "nvidia-nvjitlink", "13.0.88", cu13, "cuda13", {"libnvJitLink.so.13"});
    m_.dist_info(site, "jax", "0.11.2");
    m_.dist_info(site, "jax-cuda13-plugin", "0.11.2");
    m_.dist_info(site, "jax-cuda13-pjrt", "0.11.2");
    m_.copy(discovery_fixture("jax_cuda13", "xla_cuda_plugin.so"),
            site.substr(m_.root().size() + 1) + "/jax_plugins/xla_cuda13/xla_cuda_plugin.so");
    m_.dist_info(site, "cupy-cuda13x", "14.2.0");
    m_.write(site.substr(m_.root().size() + 1) + "/cupy/__init__.py", "");
    m_.dist_info(site, "cuda-pathfinder", "1.8.1");
    std::string capi = site.substr(m_.root().size() + 1) + "/onnxruntime/capi";
    if (onnxruntime_gpu) {
      m_.dist_info(site, "onnxruntime-gpu", "1.30.0");
      m_.write(
          capi + "/build_and_package_info.py",
          "package_name = 'onnxruntime-gpu'\n__version__ = '1.30.0'\ncuda_version = '13.0'\ncudnn_version = '9'\n");
      m_.copy(discovery_fixture("onnxruntime_cu13", "libonnxruntime_providers_cuda.so"),
              capi + "/libonnxruntime_providers_cuda.so");
      m_.copy(discovery_fixture("onnxruntime", "libonnxruntime_providers_shared.so"),
              capi + "/libonnxruntime_providers_shared.so");
    } else {
      m_.dist_info(site, "onnxruntime", "1.30.0");
      m_.write(capi + "/build_and_package_info.py", "package_name = 'onnxruntime'\n__version__ = '1.30.0'\n");
    }
  }

  fake_machine& m_;
};

}  // namespace test_support
