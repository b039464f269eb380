// The doctor's discovery (doctor/machine/) on Windows, under Wine: machines laid out in a temp folder with
// %ProgramFiles%, %USERPROFILE%, %LOCALAPPDATA%, %APPDATA% and PATH pointing into it, and torch's
// DLLs from MinGW whose import tables mirror the real ones. Each scenario's exact explanation in
// text and JSON: the missing zlibwapi.dll that stops torch's preload of torch\lib, cuDNN's
// sub-libraries that LoadLibraryExW finds through os.add_dll_directory but cuDNN's own by-name
// load does not, a cuDNN for CUDA 11 copied into a CUDA 12 toolkit, CUDA_PATH naming a removed
// toolkit, and the CPU wheel.
#include <doctest/doctest.h>

#include "machine/discover.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/win_probe.hpp"

namespace machine = cushim::machine;
namespace detail = cushim::detail;
using win_test::temp_dir;

namespace {

const std::string fixtures = CUSHIM_FIXTURE_DIR;

std::string fixture_dir(const std::string& folder) {
  std::string path = fixtures + "/" + folder;
  for (char& c : path) c = c == '/' ? '\\' : c;
  return path;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A machine in a temp folder: its %ProgramFiles%, home and PATH, and the files laid out in it.
class win_machine {
 public:
  temp_dir tree;
  std::map<std::string, std::string> env;

  win_machine() {
    tree.make_dirs("Program Files");
    tree.make_dirs("Users\\user\\AppData\\Local");
    tree.make_dirs("Users\\user\\AppData\\Roaming");
    tree.make_dirs("bin");
    env = {{"ProgramFiles", tree.path("Program Files")},
           {"USERPROFILE", tree.path("Users\\user")},
           {"LOCALAPPDATA", tree.path("Users\\user\\AppData\\Local")},
           {"APPDATA", tree.path("Users\\user\\AppData\\Roaming")},
           {"PATH", tree.path("bin")}};
  }

  std::string path(const std::string& relative) const { return tree.path(relative); }

  std::string write(const std::string& relative, const std::string& text) const {
    std::filesystem::path file(win_test::widen(tree.path(relative)));
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    return tree.path(relative);
  }

  std::string relative(const std::string& path) const { return path.substr(tree.path().size() + 1); }

  // A conda environment of Python 3.10 under the user's miniconda3; returns its site-packages.
  std::string conda_env(const std::string& name) const {
    std::string env = "Users\\user\\miniconda3\\envs\\" + name;
    write(env + "\\conda-meta\\python-3.10.13-h4de0772_0.json", "{}\n");
    write(env + "\\python.exe", "MZ");
    return tree.make_dirs(env + "\\Lib\\site-packages");
  }

  // A CUDA toolkit of `version` ("11.8.0") in %ProgramFiles%, with nvcc; returns its folder.
  std::string toolkit(const std::string& version) const {
    std::string root = "Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v" + version.substr(0, version.rfind('.'));
    write(root + "\\version.json",
          "{\n  \"cuda\" : { \"name\" : \"CUDA SDK\", \"version\" : \"" + version + "\" }\n}\n");
    write(root + "\\bin\\nvcc.exe", "MZ");
    write(root + "\\include\\cuda_runtime_api.h", "");
    return path(root);
  }

  // python.org's Python 3.11 for the user, the base of the venvs below.
  std::string base_python() const {
    write("Users\\user\\AppData\\Local\\Programs\\Python\\Python311\\python.exe", "MZ");
    write("Users\\user\\AppData\\Local\\Programs\\Python\\Python311\\python311.dll", "MZ");
    write("Users\\user\\AppData\\Local\\Programs\\Python\\Python311\\include\\patchlevel.h",
          "#define PY_VERSION \"3.11.9\"\n");
    return path("Users\\user\\AppData\\Local\\Programs\\Python\\Python311");
  }

  // A venv of that Python: pyvenv.cfg, Scripts\python.exe, Lib\site-packages; returns the latter.
  std::string venv(const std::string& relative) const {
    std::string home = base_python();
    write(relative + "\\pyvenv.cfg", "home = " + home + "\ninclude-system-site-packages = false\nversion = 3.11.9\n");
    write(relative + "\\Scripts\\python.exe", "MZ");
    return tree.make_dirs(relative + "\\Lib\\site-packages");
  }

  void dist_info(const std::string& site, const std::string& name, const std::string& version) const {
    write(site.substr(tree.path().size() + 1) + "\\" + name + "-" + version + ".dist-info\\METADATA",
          "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n\n");
  }

  // torch/version.py as torch 2.1 writes it (untyped), and its dist-info.
  void torch(const std::string& site, const std::string& version, const std::string& cuda) const {
    write(site.substr(tree.path().size() + 1) + "\\torch\\version.py",
          "__version__ = '" + version + "'\ndebug = False\ncuda = " + cuda +
              "\ngit_version = '7bcf7da3a268b435777fe87c7794c382f444e86d'\nhip = None\n");
    dist_info(site, "torch", version);
  }

  std::vector<std::string> entries() const {
    std::vector<std::string> all;
    for (const auto& [name, value] : env) all.push_back(name + "=" + value);
    return all;
  }
};

machine::findings discover(const win_machine& m, machine::options o = {}) {
  o.use_process_environment = false;
  o.environment = m.entries();
  return machine::discover(o);
}

// A problem as a test expects it: its name (docs/doctor.md) and its texts.
struct expected_problem {
  std::string name, what, path, why, fix;
};

std::string problem_json(const expected_problem& p) {
  return "{\"code\":" + detail::json_string(p.name) + ",\"what\":" + detail::json_string(p.what) +
         ",\"path\":" + detail::json_string(p.path) + ",\"why\":" + detail::json_string(p.why) +
         ",\"fix\":" + detail::json_string(p.fix) + "}";
}

void check_problem(const machine::findings& f, const std::vector<machine::problem>& problems,
                   const expected_problem& expected, const std::string& indent) {
  REQUIRE(problems.size() == 1);
  const machine::problem& p = problems.front();
  CHECK(p.name == expected.name);
  CHECK(p.what == expected.what);
  CHECK(p.path == expected.path);
  CHECK(p.why == expected.why);
  CHECK(p.fix == expected.fix);
  std::string block = indent + "WARNING: " + expected.what + "\n" + indent + "  file: " + expected.path + "\n" +
                      indent + "  why:  " + expected.why + "\n" + indent + "  fix:  " + expected.fix + "\n";
  CHECK(contains(machine::text(f), block));
  CHECK(contains(machine::json(f), problem_json(expected)));
}

const machine::environment& environment_at(const machine::findings& f, const std::string& path) {
  for (const machine::environment& e : f.environments) {
    if (e.path == path) return e;
  }
  FAIL("no environment at " << path);
  throw 0;
}

const machine::framework& framework_named(const machine::environment& e, const std::string& name) {
  for (const machine::framework& fw : e.frameworks) {
    if (fw.name == name) return fw;
  }
  FAIL("no " << name << " in " << e.path);
  throw 0;
}

const machine::framework& torch_of(const machine::environment& e) { return framework_named(e, "torch"); }

bool has(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

const std::string system32 = cushim::detail::platform::system_folder();

}  // namespace

TEST_CASE("torch 2.1.0+cu118 without zlibwapi.dll: the DLL torch's preload stops at, the chain and where it looked") {
  win_machine m;
  std::string site = m.venv("proj\\.venv");
  m.env["VIRTUAL_ENV"] = m.path("proj\\.venv");
  m.torch(site, "2.1.0+cu118", "'11.8'");
  std::string lib = site + "\\torch\\lib";
  m.tree.copy(fixture_dir("discovery") + "\\c10.dll", lib.substr(m.tree.path().size() + 1) + "\\c10.dll");
  m.tree.copy(fixture_dir("discovery\\torch_cu118") + "\\torch_cuda.dll",
              lib.substr(m.tree.path().size() + 1) + "\\torch_cuda.dll");
  m.tree.copy_folder(fixture_dir("cudnn8_good"), lib.substr(m.tree.path().size() + 1));
  for (const char* dll : {"cublas64_11.dll", "cublasLt64_11.dll"}) {
    m.tree.copy(fixture_dir("cudnn8_deps") + "\\" + dll, lib.substr(m.tree.path().size() + 1) + "\\" + dll);
  }
  machine::findings f = discover(m);
  const machine::environment& e = environment_at(f, m.path("proj\\.venv"));
  CHECK(e.kind == "venv");
  CHECK(e.python_version == "3.11.9");
  const machine::framework& torch = torch_of(e);
  CHECK(torch.version == "2.1.0+cu118");
  CHECK(torch.cuda == "11.8");
  CHECK(torch.native_file == lib + "\\torch_cuda.dll");
  std::string base = m.path("Users\\user\\AppData\\Local\\Programs\\Python\\Python311");
  check_problem(
      f, torch.problems,
      {"import_fails",
       "import torch fails: OSError: [WinError 126] The specified module could not be found. Error loading \"" + lib +
           "\\cudnn_adv_infer64_8.dll\" or one of its dependencies.",
       lib + "\\cudnn_adv_infer64_8.dll",
       "torch loads every DLL in " + lib + " first, in name order; " + lib +
           "\\cudnn_adv_infer64_8.dll needs cudnn_ops_infer64_8.dll, which needs zlibwapi.dll, which is not in "
           "any of: " +
           lib + ", " + base + ", " + system32,
       "zlibwapi.dll is zlib for Windows, which cuDNN 8.3 to 8.9 need and do not ship: put the x64 zlibwapi.dll "
       "into the folder of the cuDNN DLLs (NVIDIA's cuDNN installation guide, \"Installing Zlib\")"},
      "      ");
  // With zlibwapi.dll beside the cuDNN DLLs torch loads, and torch_cuda.dll's imports are found there.
  m.tree.copy(fixture_dir("cudnn8_deps") + "\\zlibwapi.dll", lib.substr(m.tree.path().size() + 1) + "\\zlibwapi.dll");
  machine::findings fixed = discover(m);
  const machine::framework& loads = torch_of(environment_at(fixed, m.path("proj\\.venv")));
  CHECK(loads.problems.empty());
  REQUIRE(loads.loads.size() == 2);  // in import table order
  std::map<std::string, machine::library_load> by_library;
  for (const machine::library_load& l : loads.loads) by_library[l.library] = l;
  CHECK(by_library["cuDNN"].path == lib + "\\cudnn64_8.dll");
  CHECK(by_library["cuDNN"].version == "8.9.7");
  CHECK(by_library["cuDNN"].version_source == "its FileVersion 8.9.7.29");
  CHECK(by_library["cuBLAS"].path == lib + "\\cublas64_11.dll");
}

TEST_CASE("cuDNN in a conda environment's Library\\bin: LoadLibraryExW finds it, cuDNN's own by-name loads do not") {
  win_machine m;
  std::string env = m.path("Users\\user\\miniconda3\\envs\\gpu");
  m.write("Users\\user\\miniconda3\\conda-meta\\history", "");
  m.write("Users\\user\\miniconda3\\envs\\gpu\\conda-meta\\python-3.11.9-h4de0772_0.json", "{}");
  m.write("Users\\user\\miniconda3\\envs\\gpu\\python.exe", "MZ");
  std::string site = m.tree.make_dirs("Users\\user\\miniconda3\\envs\\gpu\\Lib\\site-packages");
  m.torch(site, "2.3.1+cu121", "'12.1'");
  std::string lib = site + "\\torch\\lib";
  m.tree.copy(fixture_dir("discovery") + "\\c10.dll", lib.substr(m.tree.path().size() + 1) + "\\c10.dll");
  m.tree.copy(fixture_dir("discovery\\torch_cu12") + "\\torch_cuda.dll",
              lib.substr(m.tree.path().size() + 1) + "\\torch_cuda.dll");
  std::string library_bin =
      m.tree.copy_folder(fixture_dir("cudnn_good"), "Users\\user\\miniconda3\\envs\\gpu\\Library\\bin");
  machine::findings f = discover(m);
  const machine::environment& e = environment_at(f, env);
  CHECK(e.kind == "conda");
  CHECK(e.python_version == "3.11.9");
  const machine::framework& torch = torch_of(e);
  REQUIRE(torch.loads.size() == 1);
  std::string main = library_bin + "\\" CUSHIM_CUDNN_FILE;
  CHECK(torch.loads[0].path == main);
  std::vector<std::string> subs;
  for (const char* sub :
       {"graph", "ops", "cnn", "adv", "heuristic", "engines_precompiled", "engines_runtime_compiled"}) {
    subs.push_back(std::string("cudnn_") + sub + "64_9.dll");
  }
  std::string listed;
  for (const std::string& s : subs) listed += (listed.empty() ? "" : ", ") + s;
  check_problem(
      f, torch.problems,
      {"cudnn_sublibrary_not_found", "cuDNN's own loads of " + listed + " by name find nothing", main,
       "cuDNN (" + main +
           ") loads its sub-libraries by name when it starts; LoadLibraryExW with 0x1100 (as torch loads) finds "
           "DLLs in the folders it added with os.add_dll_directory (" +
           lib + ", " + library_bin +
           "), but a load by bare name does not search them: the search for cudnn_graph64_9.dll looks in: " + env +
           ", " + system32 + ", " + cushim::detail::platform::windows_folder() + ", " + m.path("bin") + ", (" +
           library_bin +
           "\\cudnn_graph64_9.dll is there, in a folder added with os.add_dll_directory). cuDNN then fails with "
           "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED for every call",
       "put the folder with cuDNN's DLLs on PATH (activating a conda environment puts its Library\\bin there), or "
       "copy cuDNN's DLLs into " +
           lib + ", whose DLLs torch loads itself first"},
      "      ");
  // Activated, Library\bin is on PATH: cuDNN's own search finds its sub-libraries there.
  m.env["PATH"] = library_bin + ";" + m.path("bin");
  m.env["CONDA_PREFIX"] = env;
  CHECK(torch_of(environment_at(discover(m), env)).problems.empty());
}

TEST_CASE("a cuDNN for CUDA 11 copied into a CUDA 12 toolkit, and CUDA_PATH naming a removed toolkit") {
  win_machine m;
  std::string root = "Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4";
  m.write(root + "\\version.json",
          "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"12.4.1\"\n   }\n}\n");
  m.write(root + "\\bin\\nvcc.exe", "MZ");
  m.write(root + "\\include\\cuda_runtime_api.h", "");
  m.write(root + "\\include\\cudnn_version.h",
          "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
  m.tree.copy_folder(fixture_dir("cudnn8_good"), root + "\\bin");
  m.tree.copy(fixture_dir("cudnn8_deps") + "\\zlibwapi.dll", root + "\\bin\\zlibwapi.dll");  // as the guide says
  std::string toolkit = m.path(root);
  m.env["CUDA_PATH"] = m.path("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1");
  m.env["CUDA_PATH_V12_4"] = toolkit;
  machine::findings f = discover(m);
  REQUIRE(f.toolkits.size() == 1);
  const machine::toolkit& t = f.toolkits[0];
  CHECK(t.path == toolkit);
  CHECK(t.version == "12.4.1");
  CHECK(t.found_by ==
        std::vector<std::string>{"%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA\\v*", "CUDA_PATH_V12_4"});
  CHECK(t.nvcc == toolkit + "\\bin\\nvcc.exe");
  REQUIRE(t.cudnn.size() == 1);
  CHECK(t.cudnn[0].library_version == "8.9.7");
  CHECK(t.cudnn[0].header_version == "8.9.7");
  CHECK(t.cudnn[0].version_source == "cudnn64_8.dll: its FileVersion 8.9.7.29");
  CHECK(t.cudnn[0].built_for_source == "cudnn_ops_infer64_8.dll imports cublasLt64_11.dll");
  check_problem(
      f, t.problems,
      {"cudnn_other_cuda", "the cuDNN 8.9.7 in " + toolkit + " (CUDA 12.4.1) was built for CUDA 11",
       toolkit + "\\bin\\cudnn64_8.dll",
       "cudnn_ops_infer64_8.dll imports cublasLt64_11.dll: it needs CUDA 11's libraries, which a CUDA 12 toolkit "
       "does not have, so programs built with this toolkit cannot use it",
       "install the cuDNN archive built for CUDA 12 (cudnn-...-cuda12-archive) in its place, or keep each cuDNN in "
       "a folder of its own beside the CUDA it was built for"},
      "    ");
  std::string removed = m.path("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1");
  check_problem(
      f, f.problems,
      {"variable_names_no_toolkit", "CUDA_PATH names " + removed + ", which does not exist (a removed toolkit?)",
       removed,
       "build tools and loaders that read CUDA_PATH (CMake's FindCUDAToolkit, setup.py builds, torch's loader for "
       "CUDA_PATH_V<x>_<y>) look for the toolkit there and find nothing",
       "set CUDA_PATH to an installed toolkit (" + toolkit + "), or remove the variable"},
      "  ");
}

TEST_CASE("the CPU wheel in a venv of python.org's Python, and python on PATH") {
  win_machine m;
  std::string site = m.venv("proj\\.venv");
  m.torch(site, "2.4.1+cpu", "None");
  m.env["PATH"] = m.path("proj\\.venv\\Scripts") + ";" + m.path("bin");
  machine::findings f = discover(m);
  REQUIRE(f.on_path.size() == 2);
  CHECK(f.on_path[0].path == m.path("proj\\.venv\\Scripts\\python.exe"));
  CHECK(f.on_path[0].environment == m.path("proj\\.venv"));
  CHECK(f.on_path[1].path.empty());  // no python3.exe
  const machine::environment& e = environment_at(f, m.path("proj\\.venv"));
  CHECK(e.started_by == std::vector<std::string>{"python"});
  const machine::environment& base =
      environment_at(f, m.path("Users\\user\\AppData\\Local\\Programs\\Python\\Python311"));
  CHECK(base.kind == "system");
  CHECK(base.python_version == "3.11.9");
  CHECK(base.version_source == "include\\patchlevel.h");
  const machine::framework& torch = torch_of(e);
  check_problem(f, torch.problems,
                {"cpu_only_build", "torch 2.4.1+cpu is a CPU-only build", site + "\\torch\\version.py",
                 "torch/version.py says it was built without CUDA (cuda is None): it never uses a GPU, whatever the "
                 "driver and the "
                 "toolkits (torch reports no CUDA device; a package manager that took the default index often installs "
                 "this build)",
                 "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cuXY, for a CUDA "
                 "X.Y the driver "
                 "supports (nvidia-smi shows which)"},
                "      ");
}

// Paddle 2.6.1 for CUDA 11.8 and cuDNN 8.6 (paddle/version/__init__.py as its setup.py writes it)
// and TensorFlow 2.10.1, the last with GPU support on native Windows (build_info.py as its wheel
// has it), in one conda environment: both load cuDNN 8 by name, found through PATH or not at all.
TEST_CASE("Paddle 2.6 and TensorFlow 2.10 load cuDNN 8 by name: without it on PATH, and with it") {
  win_machine m;
  std::string site = m.conda_env("paddle");
  std::string env = m.path("Users\\user\\miniconda3\\envs\\paddle");
  m.write(m.relative(site) + "\\paddle\\version\\__init__.py",
          "# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\n#\nfull_version    = '2.6.1'\nmajor           = '2'\n"
          "minor           = '6'\npatch           = '1'\nrc              = '0'\ncuda_version    = '11.8'\n"
          "cudnn_version   = '8.6.0'\nxpu_version     = 'False'\nistaged         = True\n"
          "commit          = 'fe0439e8f3f1a2ed2a3a0a9a4b8c7f7a8b9b9e0f'\nwith_mkl        = 'ON'\n");
  m.tree.copy(fixture_dir("discovery") + "\\c10.dll", m.relative(site) + "\\paddle\\base\\libpaddle.pyd");
  m.tree.make_dirs(m.relative(site) + "\\paddle\\libs");
  m.dist_info(site, "paddlepaddle_gpu", "2.6.1");
  m.write(m.relative(site) + "\\tensorflow\\python\\platform\\build_info.py",
          "# Copyright 2020 The TensorFlow Authors. All Rights Reserved.\n\"\"\"Auto-generated module providing "
          "information about the build.\"\"\"\nimport collections\n\nbuild_info = collections.OrderedDict()\n"
          "build_info['cuda_version'] = '64_112'\nbuild_info['cudart_dll_name'] = 'cudart64_110.dll'\n"
          "build_info['cudnn_dll_name'] = 'cudnn64_8.dll'\nbuild_info['cudnn_version'] = '64_8'\n"
          "build_info['is_cuda_build'] = True\nbuild_info['is_rocm_build'] = False\n"
          "build_info['is_tensorrt_build'] = False\nbuild_info['msvcp_dll_names'] = 'msvcp140.dll,msvcp140_1.dll'\n"
          "build_info['nvcuda_dll_name'] = 'nvcuda.dll'\n");
  m.tree.copy(fixture_dir("discovery") + "\\c10.dll",
              m.relative(site) + "\\tensorflow\\python\\_pywrap_tensorflow_internal.pyd");
  m.dist_info(site, "tensorflow", "2.10.1");
  machine::findings f = discover(m);
  const machine::environment& e = environment_at(f, env);
  const machine::framework& paddle = framework_named(e, "paddle");
  CHECK(paddle.version == "2.6.1");
  CHECK(paddle.build == "cuda");
  CHECK(paddle.cuda == "11.8");
  CHECK(paddle.cudnn == "8.6.0");
  std::string toolkit_bin = m.path("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin");
  check_problem(
      f, paddle.problems,
      {"by_name_load_fails", "paddle loads cudnn64_8.dll by name at its first GPU call, and that load finds nothing",
       site + "\\paddle\\base\\libpaddle.pyd",
       "Paddle 2.6.1 was built with cuDNN 8.6.0 and loads it itself: from FLAGS_cudnn_dir, then by bare name, then "
       "from the toolkit it was built with; it looks in: " +
           env + ", " + system32 + ", " + cushim::detail::platform::windows_folder() + ", " + site +
           "\\paddle\\base, " + site + "\\paddle\\libs, " + m.path("bin") + ", " + toolkit_bin +
           " (the toolkit it was built with). Every GPU operation then fails with \"The third-party dynamic library "
           "(cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)\"",
       "put the bin folder of a cuDNN 8.6 for CUDA 11 (the one with cudnn64_8.dll) on PATH, or set FLAGS_cudnn_dir to "
       "it"},
      "      ");
  const machine::framework& tf = framework_named(e, "tensorflow");
  CHECK(tf.version == "2.10.1");
  CHECK(tf.cuda == "11.2");
  CHECK(tf.cudnn == "8");
  REQUIRE(tf.problems.size() == 2);
  CHECK(tf.problems[0].name == "by_name_load_fails");
  CHECK(tf.problems[0].what == "tensorflow loads cudart64_110.dll by name at run time, and that load finds nothing");
  CHECK(tf.problems[0].why ==
        "tensorflow's files name cudart64_110.dll as the library it loads when it first uses the GPU; a load by bare "
        "name searches the application's folder, System32, the Windows folder, PATH: " +
            env + ", " + system32 + ", " + cushim::detail::platform::windows_folder() + ", " + m.path("bin"));
  CHECK(tf.problems[0].fix ==
        "install the CUDA 11.2 runtime and cuDNN 8 tensorflow was built for, and put their bin folders on PATH");
  CHECK(tf.problems[1].what == "tensorflow loads cudnn64_8.dll by name at run time, and that load finds nothing");

  // cuDNN 8.9.7's bin (with zlibwapi.dll and cuBLAS 11) and CUDA 11.8's runtime on PATH.
  std::string cudnn = m.tree.copy_folder(fixture_dir("cudnn8_good"), "cudnn\\bin");
  m.tree.copy_folder(fixture_dir("cudnn8_deps"), "cudnn\\bin");
  std::string cudart = m.tree.copy(fixture_dir("cuda118") + "\\cudart64_110.dll", "cuda\\bin\\cudart64_110.dll");
  m.env["PATH"] = cudnn + ";" + m.path("cuda\\bin") + ";" + m.path("bin");
  machine::findings fixed = discover(m);
  const machine::environment& e2 = environment_at(fixed, env);
  const machine::framework& paddle2 = framework_named(e2, "paddle");
  CHECK(paddle2.problems.empty());
  REQUIRE(paddle2.loads.size() == 1);
  CHECK(paddle2.loads[0].path == cudnn + "\\cudnn64_8.dll");
  CHECK(paddle2.loads[0].version == "8.9.7");
  const machine::framework& tf2 = framework_named(e2, "tensorflow");
  CHECK(tf2.problems.empty());
  REQUIRE(tf2.loads.size() == 2);
  CHECK(tf2.loads[0].path == cudart);
  CHECK(tf2.loads[1].path == cudnn + "\\cudnn64_8.dll");
}

// pip's opencv-python (no CUDA), and OpenCV 4.8.0 built from source with CUDA 11.8 and cuDNN 8.5,
// whose cv2 loader adds config.py's BINARIES_PATHS: its build's bin and CUDA_PATH's bin.
TEST_CASE("OpenCV: pip's cv2 without CUDA, and a source build with CUDA through config.py's BINARIES_PATHS") {
  win_machine m;
  std::string venv_site = m.venv("proj\\.venv");
  m.env["VIRTUAL_ENV"] = m.path("proj\\.venv");
  m.tree.copy(fixture_dir("discovery") + "\\c10.dll", m.relative(venv_site) + "\\cv2\\cv2.pyd");
  m.dist_info(venv_site, "opencv_python", "4.8.0.76");
  std::string site = m.conda_env("cvcuda");
  std::string env = m.path("Users\\user\\miniconda3\\envs\\cvcuda");
  std::string toolkit = m.toolkit("11.8.0");
  m.tree.copy(fixture_dir("cuda118") + "\\cudart64_110.dll", m.relative(toolkit) + "\\bin\\cudart64_110.dll");
  m.tree.copy_folder(fixture_dir("cudnn8_5"), m.relative(toolkit) + "\\bin");
  m.tree.copy_folder(fixture_dir("cudnn8_deps"), m.relative(toolkit) + "\\bin");
  std::string opencv_bin = m.tree.copy(fixture_dir("discovery\\opencv_cuda") + "\\opencv_world480.dll",
                                       "opencv\\build\\install\\x64\\vc17\\bin\\opencv_world480.dll");
  opencv_bin = opencv_bin.substr(0, opencv_bin.rfind('\\'));
  std::string install = m.path("opencv\\build\\install");
  for (char& c : install) c = c == '\\' ? '/' : c;  // CMake writes forward slashes
  m.write(m.relative(site) + "\\cv2\\config.py",
          "import os\n\nBINARIES_PATHS = [\n    os.path.join('" + install +
              "', 'x64/vc17/bin'),\n    os.path.join(os.getenv('CUDA_PATH', 'C:/Program Files/NVIDIA GPU Computing "
              "Toolkit/CUDA/v11.8'), 'bin')\n] + BINARIES_PATHS\n");
  m.write(m.relative(site) + "\\cv2\\config-3.10.py",
          "PYTHON_EXTENSIONS_PATHS = [\n    os.path.join(LOADER_DIR, 'python-3.10')\n] + PYTHON_EXTENSIONS_PATHS\n");
  std::string module = m.tree.copy(fixture_dir("discovery\\opencv_cuda") + "\\cv2.dll",
                                   m.relative(site) + "\\cv2\\python-3.10\\cv2.cp310-win_amd64.pyd");
  m.env["CUDA_PATH"] = toolkit;
  machine::findings f = discover(m);
  const machine::framework& pip = framework_named(environment_at(f, m.path("proj\\.venv")), "opencv");
  CHECK(pip.version == "4.8.0.76");
  CHECK(pip.build == "cpu");
  CHECK(pip.problems.empty());
  CHECK(pip.notes == std::vector<std::string>{
                         "opencv 4.8.0.76 is built without CUDA (its imports reach none of CUDA's libraries): it uses "
                         "no GPU; for one that does, build OpenCV from source with WITH_CUDA=ON, WITH_CUDNN=ON and "
                         "OPENCV_DNN_CUDA=ON and install its Python module in place of opencv-python (pip's "
                         "opencv-python wheels are built without CUDA)"});
  const machine::framework& built = framework_named(environment_at(f, env), "opencv");
  CHECK(built.version == "4.8.0");
  CHECK(built.version_source == "the name of opencv_world480.dll");
  CHECK(built.build == "cuda");
  CHECK(built.cuda == "11");
  CHECK(built.native_file == module);
  CHECK(built.problems.empty());
  CHECK(contains(machine::text(f), "    opencv 4.8.0 (CUDA 11): loads CUDA runtime from " + toolkit +
                                       "\\bin\\cudart64_110.dll, cuDNN 8.5.0 from " + toolkit +
                                       "\\bin\\cudnn64_8.dll\n"));
  // Without CUDA_PATH its config.py's default, NVIDIA's install of 11.8 on C:, is not there.
  m.env.erase("CUDA_PATH");
  machine::findings gone = discover(m);
  const machine::framework& broken = framework_named(environment_at(gone, env), "opencv");
  CHECK(has(broken.notes, site + "\\cv2\\config.py names C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8"
                                 "\\bin in BINARIES_PATHS, which does not exist"));
  std::string default_bin = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin";
  check_problem(gone, broken.problems,
                {"import_fails",
                 "opencv cannot load cv2.cp310-win_amd64.pyd: [WinError 126] The specified module could not be found.",
                 opencv_bin + "\\opencv_world480.dll",
                 module + " needs opencv_world480.dll (" + opencv_bin +
                     "\\opencv_world480.dll), which needs cudart64_110.dll, which is not in any of: " +
                     module.substr(0, module.rfind('\\')) + ", " + env + ", " + opencv_bin + ", " + system32,
                 "install the CUDA toolkit OpenCV was built with (the one with cudart64_110.dll) and set CUDA_PATH to "
                 "it: cv2's loader adds the folders of " +
                     site + "\\cv2\\config.py's BINARIES_PATHS (" + opencv_bin + ", " + default_bin + ") and no other"},
                "      ");
}

// NVIDIA's archive unpacked by hand and named by the build variables as a Windows build reads them:
// CUDNN_LIBRARY the import library in lib\x64, its DLLs in bin beside lib. Then each variable alone
// naming what holds no cuDNN.
TEST_CASE("CUDNN_LIBRARY naming lib\\x64\\cudnn.lib and CUDNN_INCLUDE_DIR; each alone naming no cuDNN") {
  win_machine m;
  std::string root = m.tree.make_dirs("cudnn\\8.9.7.29\\cuda");
  m.tree.copy_folder(fixture_dir("cudnn8_good"), "cudnn\\8.9.7.29\\cuda\\bin");
  m.tree.copy_folder(fixture_dir("cudnn8_deps"), "cudnn\\8.9.7.29\\cuda\\bin");
  m.write("cudnn\\8.9.7.29\\cuda\\include\\cudnn_version.h",
          "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
  std::string lib = m.tree.copy(std::string(CUSHIM_IMPLIB_DIR) + "/cudnn8_good/libcudnn64_8.dll.a",
                                "cudnn\\8.9.7.29\\cuda\\lib\\x64\\cudnn.lib");
  m.env["CUDNN_INCLUDE_DIR"] = root + "\\include";
  m.env["CUDNN_LIBRARY"] = lib;
  machine::findings f = discover(m);
  REQUIRE(f.cudnn.size() == 1);
  const machine::cudnn_install& c = f.cudnn[0];
  CHECK(c.found_by == "CUDNN_INCLUDE_DIR and CUDNN_LIBRARY");
  CHECK(c.library == root + "\\bin\\cudnn64_8.dll");
  CHECK(c.library_version == "8.9.7");
  CHECK(c.header_version == "8.9.7");
  CHECK(c.import_library == lib);
  CHECK(c.import_library_major == 8);
  CHECK(c.built_for_cuda_major == 11);
  CHECK(f.problems.empty());
  CHECK_FALSE(contains(machine::text(f), "but no cuDNN library"));
  std::string empty = m.tree.make_dirs("include");
  std::string gone = m.tree.make_dirs("cudnn\\9.1.0\\lib\\x64");
  m.write("cudnn\\9.1.0\\lib\\x64\\cudnn.lib", "!<arch>\n");
  m.env["CUDNN_INCLUDE_DIR"] = empty;
  m.env["CUDNN_LIBRARY"] = gone + "\\cudnn.lib";
  machine::findings alone = discover(m);
  REQUIRE(alone.problems.size() == 2);
  std::string why_prefix = "a source build (PyTorch's setup.py, CMake's FindCUDNN modules) takes cuDNN from ";
  CHECK(alone.problems[0].what ==
        "CUDNN_INCLUDE_DIR names " + empty + ", which holds neither cudnn_version.h nor cudnn.h");
  CHECK(alone.problems[0].why == why_prefix +
                                     "CUDNN_INCLUDE_DIR and fails to configure, or falls back to another "
                                     "cuDNN without saying so");
  CHECK(alone.problems[1].what == "CUDNN_LIBRARY names " + gone +
                                      "\\cudnn.lib, which leads to no cuDNN library (no "
                                      "cudnn64_9.dll or cudnn64_8.dll in " +
                                      gone + ", " + m.path("cudnn\\9.1.0\\bin") + ")");
  CHECK(alone.problems[1].fix == "set CUDNN_LIBRARY to the folder of an installed cuDNN, or remove the variable");
}

TEST_CASE("python on PATH starts python.org's Python, torch's CUDA build is in a venv; CUDA_PATH and nvcc disagree") {
  win_machine m;
  std::string site = m.venv("proj\\.venv");
  m.torch(site, "2.1.0+cu118", "'11.8'");
  std::string cuda12 = m.toolkit("12.4.1"), cuda11 = m.toolkit("11.8.0");
  std::string base = m.path("Users\\user\\AppData\\Local\\Programs\\Python\\Python311");
  m.env["CUDA_PATH"] = cuda12;
  m.env["PATH"] = base + ";" + cuda11 + "\\bin;" + m.path("bin");
  m.env["PWD"] = m.path("proj");  // the project, whose .venv the IDE did not pick
  machine::findings f = discover(m);
  REQUIRE(f.problems.size() == 2);
  check_problem(f, {f.problems[0]},
                {"toolkit_selection_disagrees",
                 "CUDA_PATH selects " + cuda12 + " (CUDA 12.4.1), but the first nvcc on PATH is " + cuda11 +
                     "\\bin\\nvcc.exe (CUDA 11.8.0)",
                 cuda12,
                 "build tools disagree: CMake's FindCUDAToolkit and setup.py builds take the toolkit from CUDA_PATH, a "
                 "build that runs nvcc from PATH compiles with the other one: a program then compiles with one CUDA's "
                 "headers and links or loads the other's libraries",
                 "put " + cuda12 + "\\bin first on PATH, or set CUDA_PATH to " + cuda11},
                "  ");
  std::string venv = m.path("proj\\.venv");
  check_problem(f, {f.problems[1]},
                {"wrong_interpreter",
                 "python on PATH starts " + base + "\\python.exe (system " + base +
                     "), which has no CUDA framework; torch 2.1.0+cu118 is in " + venv,
                 base + "\\python.exe",
                 "a bare python (a shell, a script's #!/usr/bin/env python, an IDE left at its default interpreter) "
                 "runs without CUDA there: importing the framework fails (No module named ...)",
                 "run " + venv + "\\Scripts\\python.exe (or activate " + venv + " first); in an IDE, choose " + venv +
                     "\\Scripts\\python.exe as the interpreter"},
                "  ");
}

// PyCharm's and VS Code's files for five projects, and a conda environment's variables.
TEST_CASE("bad input: IDE settings that are garbage, huge, name what is gone or not Python; conda state not JSON") {
  win_machine m;
  m.write("p_garbage\\.idea\\misc.xml", "<<<< not <xml\n\x01\x02");
  std::string huge = "<project version=\"4\">" + std::string(70000, ' ') +
                     "<component name=\"ProjectRootManager\" project-jdk-name=\"x\" project-jdk-type=\"Python SDK\" "
                     "/></project>\n";
  m.write("p_huge\\.idea\\misc.xml", huge);
  m.write("p_gone\\.idea\\misc.xml",
          "<project version=\"4\"><component name=\"ProjectRootManager\" version=\"2\" "
          "project-jdk-name=\"Python 3.9 (old)\" project-jdk-type=\"Python SDK\" /></project>");
  m.write("p_java\\.idea\\misc.xml",
          "<project version=\"4\"><component name=\"ProjectRootManager\" version=\"2\" "
          "project-jdk-name=\"corretto-17\" project-jdk-type=\"JavaSDK\" /></project>");
  m.write("p_unlisted\\.idea\\misc.xml",
          "<project version=\"4\"><component name=\"ProjectRootManager\" version=\"2\" "
          "project-jdk-name=\"Python 3.12\" project-jdk-type=\"Python SDK\" /></project>");
  m.write("Users\\user\\AppData\\Roaming\\JetBrains\\PyCharm2024.1\\options\\jdk.table.xml",
          "<application><component name=\"ProjectJdkTable\"><jdk version=\"2\"><name value=\"Python 3.9 (old)\" />"
          "<type value=\"Python SDK\" /><homePath value=\"$USER_HOME$/envs/old/python.exe\" /></jdk>"
          "</component></application>");
  // An older PyCharm's table: garbage, and larger than any table (1 MiB is read).
  std::string junk(1100 * 1024 + 7, '<');
  m.write("Users\\user\\AppData\\Roaming\\JetBrains\\PyCharm2023.1\\options\\jdk.table.xml", junk);
  m.write("p_vscode\\.vscode\\settings.json",
          "{\n  // the project's own venv\n  \"python.defaultInterpreterPath\": "
          "\"${workspaceFolder}/.venv/Scripts/python.exe\",\n}\n");
  m.venv("p_vscode\\.venv");
  m.write("p_vscode_bad\\.vscode\\settings.json", "{ \"python.defaultInterpreterPath\": ");
  std::string site = m.conda_env("broken");
  std::string env = m.path("Users\\user\\miniconda3\\envs\\broken");
  m.write("Users\\user\\miniconda3\\envs\\broken\\conda-meta\\state", "{\"env_vars\": {\"CUDA_PATH\": ");
  m.write("Users\\user\\miniconda3\\envs\\broken\\etc\\conda\\activate.d\\cudnn.bat",
          "@echo off\r\n@set \"CUDNN_PATH=%CONDA_PREFIX%\\Library\\cudnn\"\r\nset OTHER=1\r\n");
  m.env["PWD"] = m.path("p_garbage");
  machine::options o;
  o.projects = {m.path("p_huge"),   m.path("p_gone"),       m.path("p_java"),   m.path("p_unlisted"),
                m.path("p_vscode"), m.path("p_vscode_bad"), m.path("p_nothing")};
  machine::findings f = discover(m, o);
  for (const std::string& note : std::vector<std::string>{
           m.path("p_garbage\\.idea\\misc.xml") + " names no project interpreter (no project-jdk-name in a "
                                                  "ProjectRootManager): PyCharm asks for one",
           m.path("p_huge\\.idea\\misc.xml") + " is " + std::to_string(huge.size()) +
               " bytes; only its first 64 KiB were read",
           m.path("p_huge\\.idea\\misc.xml") + " names no project interpreter (no project-jdk-name in a "
                                               "ProjectRootManager): PyCharm asks for one",
           m.path("p_gone\\.idea\\misc.xml") + " names \"Python 3.9 (old)\", whose interpreter " +
               m.path("Users\\user\\envs\\old\\python.exe") +
               " (the jdk.table.xml of PyCharm2024.1) does not exist: the environment was removed or moved, and "
               "PyCharm shows it as invalid",
           m.path("p_java\\.idea\\misc.xml") + " names the SDK \"corretto-17\" of type JavaSDK, not a Python "
                                               "interpreter",
           m.path("p_unlisted\\.idea\\misc.xml") + " names the interpreter \"Python 3.12\", which the jdk.table.xml "
                                                   "of PyCharm2024.1, PyCharm2023.1 does not list as a Python "
                                                   "interpreter: PyCharm shows it as invalid",
           m.path("Users\\user\\AppData\\Roaming\\JetBrains\\PyCharm2023.1\\options\\jdk.table.xml") + " is " +
               std::to_string(junk.size()) + " bytes; only its first 1 MiB were read",
           m.path("p_vscode_bad\\.vscode\\settings.json") + " is not JSON (with comments): its interpreter setting "
                                                            "is not known",
           "--project " + m.path("p_nothing") + " is not a folder: not read"}) {
    CHECK_MESSAGE(has(f.notes, note), note);
  }
  REQUIRE(f.ide_interpreters.size() == 1);
  CHECK(f.ide_interpreters[0].ide == "VS Code");
  CHECK(f.ide_interpreters[0].path == m.path("p_vscode\\.venv\\Scripts\\python.exe"));
  CHECK(f.ide_interpreters[0].environment == m.path("p_vscode\\.venv"));
  const machine::environment& e = environment_at(f, env);
  CHECK(has(e.notes, env + "\\conda-meta\\state is not JSON: the variables conda env config vars set for it are not "
                           "known"));
  CHECK(has(e.notes, "activating it sets CUDNN_PATH=%CONDA_PREFIX%\\Library\\cudnn (" + env +
                         "\\etc\\conda\\activate.d\\cudnn.bat)"));
  check_problem(f, e.problems,
                {"conda_variable_stale",
                 "activating " + env + " sets CUDNN_PATH to " + env + "\\Library\\cudnn, which does not exist",
                 env + "\\Library\\cudnn",
                 env + "\\etc\\conda\\activate.d\\cudnn.bat sets it at each conda activate: build tools and loaders "
                       "that read CUDNN_PATH look there, in this environment only, and find nothing",
                 "conda env config vars set CUDNN_PATH=<the folder that exists> -p " + env +
                     " (or conda env config vars unset CUDNN_PATH -p " + env + "), then conda activate it again"},
                "    ");
}

// cushim-doctor --build: Visual Studio Build Tools 2022 17.10 (cl.exe 19.40) on PATH in a prompt its
// vcvars64.bat set up, without DISTUTILS_USE_SDK; CUDA 12.1, whose nvcc accepts _MSC_VER below 1940,
// with cuDNN's headers and DLLs copied in but not its import library.
TEST_CASE("--build: cl.exe newer than the toolkit accepts, no DISTUTILS_USE_SDK, the toolkit's cuDNN unlinkable") {
  win_machine m;
  std::string cuda = m.toolkit("12.1.1");
  m.write(m.relative(cuda) + "\\include\\crt\\host_config.h",
          "#if defined(_WIN32)\n#if _MSC_VER < 1910 || _MSC_VER >= 1940\n#error -- unsupported Microsoft Visual Studio "
          "version!\n#endif\n#endif\n");
  m.write(m.relative(cuda) + "\\include\\cudnn_version.h",
          "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
  m.tree.copy_folder(fixture_dir("cudnn_good"), m.relative(cuda) + "\\bin");
  std::string tools = m.tree.make_dirs("Program Files (x86)\\Microsoft Visual Studio\\2022\\BuildTools");
  std::string cl = m.tree.copy(fixture_dir("discovery\\msvc") + "\\cl.dll",
                               m.relative(tools) + "\\VC\\Tools\\MSVC\\14.40.33807\\bin\\Hostx64\\x64\\cl.exe");
  std::string escaped;
  for (char c : tools) escaped += c == '\\' ? std::string("\\\\") : std::string(1, c);
  m.write("ProgramData\\Microsoft\\VisualStudio\\Packages\\_Instances\\2a9f1c77\\state.json",
          "{\"installationPath\": \"" + escaped + "\", \"installationVersion\": \"17.10.34916.146\"}");
  m.write("ProgramData\\Microsoft\\VisualStudio\\Packages\\_Instances\\0badf00d\\state.json", "garbage");
  m.env["ProgramData"] = m.path("ProgramData");
  m.env["CUDA_PATH"] = cuda;
  m.env["VSCMD_ARG_TGT_ARCH"] = "x64";
  m.env["PATH"] = cl.substr(0, cl.rfind('\\')) + ";" + cuda + "\\bin;" + m.path("bin");
  machine::options o;
  o.build = true;
  machine::findings f = discover(m, o);
  CHECK(f.build.examined);
  CHECK(f.build.installed == std::vector<std::string>{"Visual Studio Build Tools 2022 17.10.34916.146 (" + tools +
                                                      "): cl.exe 19.40.33807 (" + cl + ")"});
  CHECK(f.build.compiler == cl);
  CHECK(f.build.compiler_version == "19.40.33807");
  CHECK(has(f.build.notes, m.path("ProgramData\\Microsoft\\VisualStudio\\Packages\\_Instances\\0badf00d\\state.json") +
                               " is not an instance record (JSON with an installationPath): not read"));
  REQUIRE(f.build.problems.size() == 3);
  CHECK(f.build.problems[0].name == "distutils_use_sdk_not_set");
  CHECK(f.build.problems[0].what ==
        "the Visual Studio prompt's environment is set up here (VSCMD_ARG_TGT_ARCH=x64), but "
        "DISTUTILS_USE_SDK is not set");
  CHECK(f.build.problems[0].fix == "set DISTUTILS_USE_SDK=1 in this prompt");
  CHECK(f.build.problems[1].name == "host_compiler_unsupported");
  CHECK(f.build.problems[1].what == "cl.exe 19.40.33807 (_MSC_VER 1940) is newer than the CUDA 12.1.1 toolkit " + cuda +
                                        " accepts (_MSC_VER below 1940)");
  CHECK(f.build.problems[1].path == cuda + "\\include\\crt\\host_config.h");
  CHECK(f.build.problems[2].name == "cudnn_incomplete");
  CHECK(f.build.problems[2].what ==
        "the toolkit " + cuda + " has cuDNN's headers and DLLs but no import library (lib\\x64\\cudnn.lib)");
  CHECK(f.build.problems[2].fix == "copy the lib\\x64 folder of the same cuDNN archive into " + cuda + "\\lib\\x64");
  CHECK(contains(machine::text(f),
                 "\nBuilding from source (what nvcc and a build need; nothing was run)\n  installed: "
                 "Visual Studio Build Tools 2022 17.10.34916.146 (" +
                     tools + "): cl.exe 19.40.33807 (" + cl + ")\n  cl.exe on PATH: " + cl + " (19.40.33807)\n"));
}
