// The doctor's discovery (doctor/machine/) on Windows, under Wine: machines laid out in a temp folder with
// %ProgramFiles%, %USERPROFILE%, %LOCALAPPDATA%, %APPDATA% and PATH pointing into it, and torch's
// DLLs from MinGW whose import tables mirror the real ones. Each scenario's exact explanation in
// text and JSON: the missing zlibwapi.dll that stops torch's preload of torch\lib, cuDNN's
// sub-libraries that LoadLibraryExW finds through os.add_dll_directory but cuDNN's own by-name
// load does not, a cuDNN for CUDA 11 copied into a CUDA 12 toolkit, CUDA_PATH naming a removed
// toolkit, and the CPU wheel.
#include <doctest/doctest.h>

#include "machine/discover.hpp"

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

machine::findings discover(const win_machine& m) {
  machine::options o;
  o.use_process_environment = false;
  o.environment = m.entries();
  return machine::discover(o);
}

std::string problem_json(const machine::problem& p) {
  return "{\"code\":" + detail::json_string(p.code) + ",\"what\":" + detail::json_string(p.what) +
         ",\"path\":" + detail::json_string(p.path) + ",\"why\":" + detail::json_string(p.why) +
         ",\"fix\":" + detail::json_string(p.fix) + "}";
}

void check_problem(const machine::findings& f, const std::vector<machine::problem>& problems,
                   const machine::problem& expected, const std::string& indent) {
  REQUIRE(problems.size() == 1);
  const machine::problem& p = problems.front();
  CHECK(p.code == expected.code);
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

const machine::framework& torch_of(const machine::environment& e) {
  for (const machine::framework& fw : e.frameworks) {
    if (fw.name == "torch") return fw;
  }
  FAIL("no torch in " << e.path);
  throw 0;
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
