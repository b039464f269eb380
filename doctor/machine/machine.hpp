// The machine as the people who use CUDA have it, found from files alone: every CUDA toolkit
// (and a cuDNN copied into it), the cuDNN the build variables name, every Python environment and
// the frameworks installed in it, each framework's CUDA-bound library resolved the way that
// framework's loader resolves it, and each problem with why and what to do. Nothing is run (no
// Python, no framework, no nvcc), nothing is loaded and nothing is written, so the answer comes
// exactly when those are broken.
//
// Defined in the doctor module's one translation unit (doctor.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <cushim/status.hpp>

namespace cushim {
namespace machine {

// Something wrong, with why and what to do: cushim's own problem, named (problem::name, as
// docs/doctor.md, "The toolkits and Python environments (discovery)", lists them) and made only in
// doctor/words/ (words::warning).
using problem = cushim::problem;

// One file of a cuDNN: its main library or one of its sub-libraries.
struct cudnn_file {
  std::string name;     // libcudnn_ops_infer.so.8, cudnn_cnn64_9.dll
  std::string path;     // empty: not there
  std::string version;  // "8.5.0", from the file (its name, its version word or resource); empty when it does not say
};

// A DLL a library imports, found where Windows' loader would find it.
struct resolved_import {
  std::string name;                   // zlibwapi.dll
  std::string path;                   // empty: not found
  std::string needed_by;              // the files that import it: "cudnn_ops_infer64_8.dll, cudnn_cnn_infer64_8.dll"
  std::vector<std::string> searched;  // where it was looked for
};

// cuDNN files in one place: copied into a toolkit, on PATH, or named by the variables a source
// build reads.
struct cudnn_install {
  std::string found_by;          // "copied into the toolkit", "CUDNN_PATH", "CUDNN_INCLUDE_DIR", "PATH", ...
  std::string header;            // cudnn_version.h (cudnn.h before 8.0); empty without one
  std::string header_version;    // "8.9.7"
  std::string library;           // the main library; empty without one
  std::string library_version;   // "8.5.0": the main library's, else the first sub-library's that says
  std::string version_source;    // where library_version comes from
  int built_for_cuda_major = 0;  // from its files; 0 when they do not say
  std::string built_for_source;  // "cudnn_ops_infer64_8.dll imports cublasLt64_11.dll"
  std::vector<cudnn_file> sublibraries;
  std::string import_library;            // Windows: lib\x64\cudnn.lib, what a build links; empty without one
  int import_library_major = 0;          // the cudnn64_N.dll it links to; 0 when it names none
  std::vector<resolved_import> imports;  // Windows: what its DLLs import beyond cuDNN and the system
};

struct toolkit {
  std::string path;
  std::string resolved_path;               // the folder its links lead to, when that differs
  std::string version;                     // "12.4.1"; empty when its files do not say
  std::string version_source;              // "version.json", "version.txt", ...
  std::vector<std::string> found_by;       // "/usr/local/cuda-*", "CUDA_PATH", "CUDA_PATH_V12_4", "nvcc on PATH", ...
  std::vector<std::string> selected_by;    // which of CUDA_PATH, CUDA_HOME and the first nvcc on PATH lead here
  std::string nvcc;                        // its bin/nvcc; empty without one
  std::vector<cudnn_install> cudnn;        // a cuDNN copied into it
  std::vector<cudnn_install> build_cudnn;  // without one: the cuDNN a build with it finds elsewhere
  std::vector<problem> problems;
  std::vector<std::string> notes;  // what could not be read, and what was read only in part
};

// A library a framework needs, found as that framework's loader finds it.
struct library_load {
  std::string library;         // "cuDNN", "CUDA runtime", "cuBLAS", "cuBLASLt"
  std::string name;            // libcudnn.so.9, cudnn64_8.dll
  std::string path;            // empty: not found
  std::string version;         // "9.1.0.70"; empty when its files do not say
  std::string version_source;  // "nvidia-cudnn-cu12 9.1.0.70 (dist-info)", "its file name", ...
};

struct framework {
  std::string name;                        // "torch", "tensorflow", "onnxruntime", "paddle", "jax", "cupy"
  std::string distribution;                // the pip distribution: "torch", "onnxruntime-gpu", "jax-cuda12-plugin", ...
  std::string version;                     // "2.5.1+cu124"
  std::string version_source;              // "torch/version.py", "its METADATA", ...
  std::string build;                       // "cuda", "cpu", "rocm", or "unknown"
  std::string cuda;                        // the CUDA its files say it was built for: "12.4"
  std::string cudnn;                       // what its files say of cuDNN: "8", "8.9.2.26"
  std::string hip;                         // a ROCm build's HIP version
  std::vector<std::string> architectures;  // the GPU architectures its files list: "sm_75", ...
  std::string native_file;                 // its CUDA-bound library; empty when it has none here
  std::vector<library_load> loads;         // the CUDA runtime, cuDNN, ...: what its loader would load
  std::vector<problem> problems;
  std::vector<std::string> notes;
};

// An nvidia-* pip distribution (nvidia-cudnn-cu12 9.1.0.70).
struct wheel {
  std::string name;
  std::string version;
  std::string path;  // its .dist-info folder
};

struct environment {
  std::string kind;                        // "venv", "conda", "pyenv", "system", "user site", "interpreter"
  std::string path;                        // its prefix (sys.prefix); the site folder for "user site"
  std::string python;                      // its interpreter; empty when none was found
  std::string python_version;              // "3.11.7"; empty when its files do not say
  std::string version_source;              // "pyvenv.cfg", "include/python3.11/patchlevel.h", ...
  std::vector<std::string> found_by;       // "VIRTUAL_ENV", "conda environments.txt", "python on PATH", ...
  std::vector<std::string> site_packages;  // the folders its packages are in
  std::vector<std::string> started_by;     // "python", "python3": the bare commands on PATH that start it
  std::vector<framework> frameworks;
  std::vector<wheel> nvidia_wheels;
  std::vector<problem> problems;
  std::vector<std::string> notes;
};

// What a bare command name on PATH starts.
struct command_on_path {
  std::string command;      // "python", "python3"
  std::string path;         // the file PATH gives; empty: none
  std::string environment;  // the environment it starts (its path); empty when unknown
  std::string how;          // how that is known: "pyenv shim, version from /root/.pyenv/version", ...
};

// The interpreter an IDE runs a project's code with, from the IDE's own files.
struct ide_interpreter {
  std::string ide;          // "PyCharm", "VS Code"
  std::string project;      // the project's folder
  std::string settings;     // the project's file that chooses it: .idea/misc.xml, .vscode/settings.json
  std::string name;         // PyCharm's name for it ("Python 3.10 (torch201)"); empty for VS Code
  std::string path;         // the interpreter
  std::string environment;  // the environment it starts (its path); empty when unknown
  std::string how;          // where the path comes from: "the jdk.table.xml of PyCharm2023.2", ...
};

// What building CUDA and cuDNN code from source needs (cushim-doctor --build): the compiler nvcc
// hosts, its environment, and the toolkit's cuDNN headers and import libraries.
struct build_tools {
  bool examined = false;
  std::vector<std::string> installed;  // the C++ compilers installed: "Visual Studio Build Tools 2022 17.9 (...)"
  std::string compiler;                // the first cl.exe (Linux: c++) on PATH; empty: none
  std::string compiler_version;        // its version, "19.39.33523"
  std::vector<problem> problems;
  std::vector<std::string> notes;
};

// One copy of an NVIDIA library on the machine: a file, the names it is found by, what it is and
// who put it there.
struct library_copy {
  std::string library;                   // "cuDNN", "CUDA runtime", ..., "NVIDIA driver", "NVML"
  std::string key;                       // cushim's name for it: "cudnn", "cudart", ..., "driver", "nvml"
  int major = 0;                         // the library's own major, from its name (libcudnn.so.9: 9)
  std::string path;                      // the name the loader asks for, in the folder it was found in
  std::string file;                      // the file that name leads to, when it is another
  std::vector<std::string> also_at;      // the same file by other paths (a folder linked to, another link)
  std::vector<std::string> found_by;     // "ld.so.cache", "LD_LIBRARY_PATH", "the toolkit /usr/local/cuda-13.0", ...
  std::string version;                   // "9.14.0"; empty only when nothing says
  std::string version_source;            // "its file name", "its package libcudnn9-cuda-13 9.14.0.64-1", ...
  int cuda_major = 0;                    // the CUDA major it belongs to or was built for; 0: nothing says
  std::string cuda_source;               // "its name", "libcudnn_graph.so.9's RUNPATH names nvidia/cu13", ...
  std::string installed_by;              // "package", "pip", "conda", "toolkit", "framework", "driver", "by hand"
  std::string owner;                     // "libcudnn9-cuda-13 9.14.0.64-1 (dpkg)", "nvidia-cudnn-cu13 9.19.0.56 (pip)"
  std::string package;                   // the package that installed it, by the name its manager knows; or empty
  std::vector<cudnn_file> sublibraries;  // the sub-libraries beside it (cuDNN's; NVRTC's builtins)
  std::vector<std::string> used_by;      // the stacks that load it
  std::vector<std::string> notes;
};

// Programs built with cushim and one release's headers: the copy such a program would load in a
// plain environment (cushim's own search, screened from the files), and what to change when the
// copies it meets cannot be used.
struct cushim_program {
  std::string library;                    // "cuDNN", "CUDA runtime"
  std::string key;                        // "cudnn", "cudart"
  std::string headers;                    // the header whose version was read (.../cudnn_version.h)
  std::string headers_version;            // "9.19.0", "13.0"
  std::vector<std::string> headers_from;  // who installed each copy of these headers ("the wheel nvidia-cudnn-cu13")
  bool this_program = false;              // the doctor itself was built with these headers
  std::string loads;                      // the copy it would load; empty: none
  std::string loads_version;
  std::string found_by;              // the rule of cushim's search that finds it
  std::vector<std::string> refused;  // each copy it meets and refuses first, with why
  std::vector<problem> problems;
  std::vector<std::string> notes;
};

struct findings {
  std::vector<toolkit> toolkits;
  std::vector<cudnn_install> cudnn;  // named by CUDNN_PATH, CUDNN_INCLUDE_DIR, CUDNN_LIBRARY
  std::vector<environment> environments;
  std::vector<command_on_path> on_path;
  std::vector<library_copy> copies;               // every copy of every NVIDIA library cushim knows
  std::vector<cushim_program> programs;           // per cuDNN and CUDA release whose headers are here
  std::vector<ide_interpreter> ide_interpreters;  // the current folder's and each --project's
  build_tools build;                              // with options.build, or a toolkit without nvcc on PATH
  std::vector<problem> problems;  // of no one toolkit or environment: the variables, the interpreter on PATH
  std::vector<std::string> notes;
};

struct options {
  // Interpreters or environment folders to examine besides those found (cushim-doctor --python).
  std::vector<std::string> pythons;
  // Project folders whose IDE settings choose an interpreter, besides the current folder (--project).
  std::vector<std::string> projects;
  // Examine what a source build needs (cushim-doctor --build).
  bool build = false;
  // The driver and the GPUs as the program found them (diagnostics::driver(), the CUDA runtime):
  // the checks against them are made only when they are given.
  bool driver_found = false;
  int driver_cuda_version = 0;                // the newest CUDA it supports, M*1000+m*10
  std::string driver_version;                 // "550.54.15"
  std::vector<int> gpu_compute_capabilities;  // 75 for SM 7.5
  // The environment to read: "NAME=value" entries instead of the process's own when
  // use_process_environment is false. CUSHIM_DISCOVERY_ROOT in it (for tests) is a folder that
  // stands for "/" in the fixed locations (/usr/local/cuda-*, /opt, /usr/lib/python3*, /etc/ld.so.cache).
  bool use_process_environment = true;
  std::vector<std::string> environment;
};

// Everything found; never throws, never blocks on a FIFO, and is bounded in time and size.
findings discover(const options& opts = {});

// Whether a toolkit, an environment or the machine as a whole has a problem.
bool has_problems(const findings& f);

// For a person: one line per toolkit, environment and framework when all is well, the details
// and each problem (WARNING, why, fix) when not.
std::string text(const findings& f);

// The same findings as one JSON object (docs/doctor.md, "cushim-doctor": `--json`, "discovery").
std::string json(const findings& f);

// What a record of the machine keeps (cushim-doctor --record): each environment's framework
// versions and the CUDA and cuDNN each would load, as "key: value" pairs.
std::vector<std::pair<std::string, std::string>> record(const findings& f);

}  // namespace machine
}  // namespace cushim
