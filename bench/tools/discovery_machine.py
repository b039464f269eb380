#!/usr/bin/env python3
"""Lays out a machine for cushim-doctor's discovery under ROOT (its CUSHIM_DISCOVERY_ROOT): N
Python environments with one framework each (conda's base and its envs, pyenv's versions, in
turn; torch 2.5.1+cu124 with its three nvidia wheels, onnxruntime-gpu with the same wheels,
tensorflow, in turn) and T toolkits in usr/local/cuda-*, each with a cuDNN copied in. The library
files come from LIBS (bench/run.sh builds them from src/fixture_discovery.c with the sonames,
DT_NEEDED and RUNPATH of the real ones).

    discovery_machine.py --libs LIBS --root ROOT --environments N --toolkits T
"""
import argparse
import os
import shutil
import stat

CUDNN_SUBLIBRARIES = ["graph", "ops", "cnn", "adv", "heuristic", "engines_precompiled", "engines_runtime_compiled"]
WHEELS = [  # distribution, version, folder in site-packages, files
    ("nvidia-cudnn-cu12", "9.1.0.70", "nvidia/cudnn/lib",
     ["libcudnn.so.9"] + [f"libcudnn_{s}.so.9" for s in CUDNN_SUBLIBRARIES]),
    ("nvidia-cuda-runtime-cu12", "12.4.127", "nvidia/cuda_runtime/lib", ["libcudart.so.12"]),
    ("nvidia-cublas-cu12", "12.4.5.8", "nvidia/cublas/lib", ["libcublas.so.12", "libcublasLt.so.12"]),
]


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


def dist_info(site, name, version, record=(), requires=()):
    folder = os.path.join(site, f"{name.replace('-', '_')}-{version}.dist-info")
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    metadata += "".join(f"Requires-Dist: {r}\n" for r in requires)
    write(os.path.join(folder, "METADATA"), metadata + "\n")
    write(os.path.join(folder, "RECORD"), "".join(f"{r},sha256=0,1\n" for r in record))


def wheels(site, libs):
    for name, version, folder, files in WHEELS:
        os.makedirs(os.path.join(site, folder), exist_ok=True)
        for f in files:
            shutil.copyfile(os.path.join(libs, f), os.path.join(site, folder, f))
        dist_info(site, name, version, [f"{folder}/{f}" for f in files])


def framework(site, libs, kind):
    if kind == "torch":
        write(os.path.join(site, "torch/version.py"),
              "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
              "__version__ = '2.5.1+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\n"
              "git_version = '0123456789abcdef0123456789abcdef01234567'\nhip: Optional[str] = None\n")
        os.makedirs(os.path.join(site, "torch/lib"), exist_ok=True)
        shutil.copyfile(os.path.join(libs, "libtorch_cuda.so"), os.path.join(site, "torch/lib/libtorch_cuda.so"))
        dist_info(site, "torch", "2.5.1+cu124", requires=[f"{n}=={v}; platform_system == \"Linux\"" for n, v, _, _ in WHEELS])
        wheels(site, libs)
    elif kind == "onnxruntime":
        write(os.path.join(site, "onnxruntime/capi/build_and_package_info.py"),
              "package_name = 'onnxruntime-gpu'\n__version__ = '1.19.2'\ncuda_version = '12.2'\ncudnn_version = '9.1.0'\n")
        shutil.copyfile(os.path.join(libs, "libonnxruntime_providers_cuda.so"),
                        os.path.join(site, "onnxruntime/capi/libonnxruntime_providers_cuda.so"))
        dist_info(site, "onnxruntime-gpu", "1.19.2")
        wheels(site, libs)
    else:
        write(os.path.join(site, "tensorflow/python/platform/build_info.py"),
              "import collections\n\nbuild_info = collections.OrderedDict()\n"
              "build_info['cuda_compute_capabilities'] = ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']\n"
              "build_info['cuda_version'] = '12.3'\nbuild_info['cudnn_version'] = '8'\n"
              "build_info['is_cuda_build'] = True\nbuild_info['is_rocm_build'] = False\n")
        shutil.copyfile(os.path.join(libs, "_pywrap_tensorflow_internal.so"),
                        os.path.join(site, "tensorflow/python/_pywrap_tensorflow_internal.so"))
        dist_info(site, "tensorflow", "2.16.1")


def environment(root, libs, i):
    home = os.path.join(root, "home/user")
    kind = ["torch", "torch", "onnxruntime", "tensorflow"][i % 4]
    if i % 2 == 0:  # conda: its base first, then envs/env-<i>
        prefix = os.path.join(home, "miniconda3") if i == 0 else os.path.join(home, f"miniconda3/envs/env-{i}")
        write(os.path.join(prefix, "conda-meta/python-3.11.9-h955ad1f_0.json"), "{}\n")
    else:  # pyenv
        prefix = os.path.join(home, f".pyenv/versions/3.11.{i}")
        write(os.path.join(prefix, "include/python3.11/patchlevel.h"), f'#define PY_VERSION "3.11.{i}"\n')
    write(os.path.join(prefix, "bin/python3"), "#!/bin/sh\n", 0o755)
    site = os.path.join(prefix, "lib/python3.11/site-packages")
    os.makedirs(site, exist_ok=True)
    framework(site, libs, kind)


def toolkit(root, libs, version):
    series = version.rsplit(".", 1)[0]
    prefix = os.path.join(root, f"usr/local/cuda-{series}")
    write(os.path.join(prefix, "version.json"),
          '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   }\n}\n' % version)
    write(os.path.join(prefix, "bin/nvcc"), "#!/bin/sh\n", 0o755)
    write(os.path.join(prefix, "include/cuda_runtime_api.h"), "")
    write(os.path.join(prefix, "include/cudnn_version.h"),
          "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n")
    os.makedirs(os.path.join(prefix, "lib64"), exist_ok=True)
    for f in ["libcudnn.so.9"] + [f"libcudnn_{s}.so.9" for s in CUDNN_SUBLIBRARIES]:
        shutil.copyfile(os.path.join(libs, f), os.path.join(prefix, "lib64", f.replace(".so.9", ".so.9.1.0")))
        os.symlink(f.replace(".so.9", ".so.9.1.0"), os.path.join(prefix, "lib64", f))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--libs", required=True)
    p.add_argument("--root", required=True)
    p.add_argument("--environments", type=int, required=True)
    p.add_argument("--toolkits", type=int, required=True)
    a = p.parse_args()
    shutil.rmtree(a.root, ignore_errors=True)
    os.makedirs(os.path.join(a.root, "usr/bin"))
    # The host's C library stands for the machine's: every framework library the doctor follows needs it.
    for f in ["lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"]:
        if os.path.exists("/" + f):
            os.makedirs(os.path.dirname(os.path.join(a.root, f)), exist_ok=True)
            os.symlink("/" + f, os.path.join(a.root, f))
    for i in range(a.environments):
        environment(a.root, a.libs, i)
    for version in ["11.8.0", "12.1.1", "12.4.1", "12.6.3", "12.8.1", "12.9.1", "13.0.2"][: a.toolkits]:
        toolkit(a.root, a.libs, version)


if __name__ == "__main__":
    main()
