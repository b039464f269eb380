// cushim-doctor and the GPU examples on Windows: what they print and how they exit with the
// fixture cuDNN 9 and CUDA runtime (and, for what the build opts the doctor into, the recording
// cuBLAS, cuBLASLt and NVRTC), with a broken sub-library, with cuDNN or NVRTC missing, and with a
// cuDNN that crashes, which probe_in_child runs in the doctor as its probe program.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/article_machine.hpp"
#include "support/win_probe.hpp"

using win_test::probe_output;
using win_test::run_probe;
using win_test::run_program;
using win_test::temp_dir;

namespace {

const std::string cudnn = CUSHIM_CUDNN_FILE;

// A fixture folder without the trailing separator.
std::string fixture_dir(const std::string& folder) { return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder; }

// cuDNN and the runtime; the doctor also checks cuBLAS, cuBLASLt and NVRTC when the build opts it into
// them (examples/CMakeLists.txt): the recording fixtures, which answer with the headers' versions.
std::map<std::string, std::string> fixtures_env() {
  return {{"CUSHIM_CUDNN_PATH", fixture_dir("cudnn_good")},
          {"CUSHIM_CUDART_PATH", fixture_dir("cudart_good")},
          {"CUSHIM_CUBLAS_PATH", fixture_dir("cublas_recording")},
          {"CUSHIM_CUBLASLT_PATH", fixture_dir("cublasLt_recording")},
          {"CUSHIM_NVRTC_PATH", fixture_dir("nvrtc_recording")}};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A string as the JSON writer writes it: only its backslashes need escaping here.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '\\' ? std::string("\\\\") : std::string(1, c);
  return out + "\"";
}

// The copies that crash (tests/fixtures/crashing_library.c) and what probe_in_child says of them,
// with the default time limit: under Wine on a busy machine a child that passes takes seconds.
const std::vector<std::pair<std::string, std::string>> crashing_copies = {
    {"crashing_segv", "crashed with EXCEPTION_ACCESS_VIOLATION (0xC0000005) in cudnnGetVersion"},
    {"crashing_abort", "ended the process (exit status 3) in cudnnGetVersion"},
    {"crashing_loop", "did not finish in 10000 ms in cudnnGetVersion"},
    {"crashing_constructor_exit", "ended the process (exit status 3) while loading"}};

// A crashing cudnn64_<major>.dll with the good sub-libraries beside it (cushim refuses a cuDNN
// without its root sub-library before calling it), in a folder whose name has a space and
// non-ASCII letters; returns the DLL's path.
std::string crashing_cudnn(const temp_dir& tree, const std::string& folder) {
  std::string dll = tree.copy_cudnn("probe café 用户\\" + folder);
  tree.copy(win_test::fixture(folder, cudnn), "probe café 用户\\" + folder + "\\" + cudnn);
  return dll;
}

const std::string in_child = ", in a child process (probe_in_child); never loaded in this one";

}  // namespace

TEST_CASE("the doctor with cuDNN and the CUDA runtime but no driver: exit 1, sub-libraries and import tables") {
  probe_output r = run_program(CUSHIM_DOCTOR, fixtures_env());
  INFO(r.text);
  CHECK(r.exit_code == 1);
  std::string dir = fixture_dir("cudnn_good");
  CHECK(contains(r.text, "cuDNN: OK, 9.19.0 (compiled with 9.19.0) from " + dir + "\\" + cudnn + "\n"));
  CHECK(contains(r.text, "    cudnn_graph64_9.dll: OK (required), 9.19.0, " + dir + "\\cudnn_graph64_9.dll"));
  CHECK(contains(r.text,
                 "Dependencies of the libraries in use (import tables), resolved as the system loader would:\n"
                 "  " CUSHIM_CUDART_FILE " needs KERNEL32.dll msvcrt.dll: all found\n  " +
                     cudnn + " needs KERNEL32.dll msvcrt.dll: all found\n"));
  CHECK(contains(r.text,
                 "  cudnn_cnn64_9.dll needs KERNEL32.dll msvcrt.dll cudnn_graph64_9.dll cudnn_ops64_9.dll: "
                 "all found\n"));
  CHECK(contains(r.text,
                 "fix:  install the NVIDIA display driver for your GPU (it puts nvcuda.dll into System32); "
                 "or run on the CPU"));
#ifdef CUSHIM_DOCTOR_CUBLAS
  CHECK(contains(r.text, "    1. CUSHIM_CUBLAS_PATH: " + fixture_dir("cublas_recording") +
                             "\\" CUSHIM_CUBLAS_FILE " -> loaded (cuBLAS "));
  CHECK(contains(r.text, "    1. CUSHIM_CUBLASLT_PATH: " + fixture_dir("cublasLt_recording") +
                             "\\" CUSHIM_CUBLASLT_FILE " -> loaded (cuBLASLt "));
  CHECK(contains(r.text, "\n  " CUSHIM_CUBLAS_FILE " needs KERNEL32.dll msvcrt.dll: all found\n  " CUSHIM_CUBLASLT_FILE
                         " needs KERNEL32.dll msvcrt.dll: all found\n"));
  // cuDNN's own load of cuBLASLt by name finds the copy cushim loaded.
  CHECK_FALSE(contains(r.text, "cuDNN loads " CUSHIM_CUBLASLT_FILE " by name"));
#endif
#ifdef CUSHIM_DOCTOR_NVRTC
  const std::string cuda = std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
  CHECK(contains(r.text, "NVRTC: OK, " + cuda + " (compiled with " + cuda + ") from " + fixture_dir("nvrtc_recording") +
                             "\\" CUSHIM_NVRTC_FILE "\n"));
  CHECK(contains(r.text, "\n  " CUSHIM_NVRTC_FILE " needs KERNEL32.dll msvcrt.dll: all found\n"));
  CHECK_FALSE(contains(r.text, "cuDNN loads " CUSHIM_NVRTC_FILE " by name"));
#endif
  CHECK(r.text.rfind("No stack can use a GPU: no NVIDIA driver was found\n", 0) == 0);
  CHECK(contains(r.text, "verdict: NO GPU (exit 1): no NVIDIA driver was found"));
  CHECK_FALSE(contains(r.text, "libcuda"));
  CHECK_FALSE(contains(r.text, "DT_NEEDED"));
}

TEST_CASE("the doctor names a sub-library's missing import and the DLL that needs it") {
  temp_dir tree;
  std::string dir = tree.copy_cudnn("c");
  dir = tree.path("c");
  tree.copy(win_test::fixture("cudnn_needs_zlib", cudnn), "c\\cudnn_cnn64_9.dll");  // imports zlibwapi.dll
  std::map<std::string, std::string> env = fixtures_env();
  env["CUSHIM_CUDNN_PATH"] = dir;
  probe_output r = run_program(CUSHIM_DOCTOR, env);
  INFO(r.text);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.text, dir + "\\cudnn_cnn64_9.dll needs zlibwapi.dll, which is not in any of: " + dir));
  CHECK(contains(r.text,
                 "  cudnn_cnn64_9.dll needs KERNEL32.dll msvcrt.dll zlibwapi.dll\n    MISSING zlibwapi.dll, "
                 "looked in: " +
                     dir + ", "));
}

TEST_CASE("the doctor with cuDNN hidden behind an empty folder: exit 1") {
  temp_dir tree;
  std::map<std::string, std::string> env = fixtures_env();
  env["CUSHIM_CUDNN_PATH"] = tree.make_dirs("empty");
  probe_output r = run_program(CUSHIM_DOCTOR, env);
  INFO(r.text);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.text, "cuDNN: UNAVAILABLE (override_failed), compiled with 9.19.0, looked for " + cudnn + "\n"));
}

TEST_CASE("--record on Windows: the Windows version, the paths and each sub-library") {
  temp_dir tree;
  std::string record = tree.path("record.txt");
  probe_output r = run_program(CUSHIM_DOCTOR, fixtures_env(), {"--record", record});
  INFO(r.text);
  CHECK(r.exit_code == 1);
  std::ifstream in(std::filesystem::path(win_test::widen(record)));
  std::stringstream text;
  text << in.rdbuf();
  std::string dir = fixture_dir("cudnn_good");
  CHECK(contains(text.str(), "\nos: Windows "));
  CHECK(contains(text.str(), "\ncudnn: 9.19.0\n"));
  CHECK(contains(text.str(), "\ncudnn_path: " + dir + "\\" + cudnn + "\n"));
  CHECK(contains(text.str(),
                 "\ncudnn_sublibrary: cudnn_heuristic64_9.dll unknown " + dir + "\\cudnn_heuristic64_9.dll\n"));
  CHECK(contains(text.str(), "\nnvidia_driver: not found\n"));
}

TEST_CASE("with cuDNN hidden the examples exit 3 and name cuDNN") {
  temp_dir tree;
  std::map<std::string, std::string> env = fixtures_env();
  env["CUSHIM_CUDNN_PATH"] = tree.make_dirs("empty");
  std::vector<std::string> programs = {CUSHIM_CONV_FORWARD, CUSHIM_LSTM_FORWARD};
#ifdef CUSHIM_MLP_FORWARD
  programs.push_back(CUSHIM_MLP_FORWARD);
#endif
  for (const std::string& program : programs) {
    probe_output r = run_program(program, env);
    INFO(program, r.text);
    CHECK(r.exit_code == 3);
    CHECK(contains(r.text, "cuDNN: UNAVAILABLE (override_failed)"));
  }
}

#ifdef CUSHIM_NVRTC_SAXPY
TEST_CASE("with NVRTC hidden nvrtc_saxpy exits 3 and names NVRTC") {
  temp_dir tree;
  std::map<std::string, std::string> env = fixtures_env();
  env["CUSHIM_NVRTC_PATH"] = tree.make_dirs("empty");
  probe_output r = run_program(CUSHIM_NVRTC_SAXPY, env);
  INFO(r.text);
  CHECK(r.exit_code == 3);
  CHECK(contains(r.text, "nvrtc_saxpy: no usable GPU, NVRTC or driver: NVRTC is unavailable (override_failed)\n"));
  CHECK(contains(r.text, "NVRTC: UNAVAILABLE (override_failed)"));
}
#endif

TEST_CASE(
    "a cuDNN that crashes, aborts, hangs or exits does not take the doctor down: named, --json whole, the next used") {
  temp_dir tree;
  // The doctor serves its own probe requests: from a folder whose name has a space and non-ASCII letters.
  const std::string doctor = tree.copy(CUSHIM_DOCTOR, "doctor café 用户\\cushim-doctor.exe");
  const std::string good = fixture_dir("cudnn_good") + "\\" + cudnn;
  for (const auto& [folder, how] : crashing_copies) {
    CAPTURE(folder);
    std::map<std::string, std::string> env = fixtures_env();
    env.erase("CUSHIM_CUDNN_PATH");
    const std::string crashing = crashing_cudnn(tree, folder);
    env["CUSHIM_SEARCH_PATH"] = tree.path("probe café 用户\\" + folder) + ";" + fixture_dir("cudnn_good");
    probe_output r = run_program(doctor, env, {"--json"});
    INFO(r.text);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.text, "\"attempts\":[{\"rule\":\"CUSHIM_SEARCH_PATH[0]\",\"path\":" + json_string(crashing) +
                               ",\"outcome\":\"crashed\",\"detail\":\"" + how + in_child +
                               "\"},{\"rule\":\"CUSHIM_SEARCH_PATH[1]\",\"path\":" + json_string(good) +
                               ",\"outcome\":\"loaded\",\"detail\":\"cuDNN 9.19.0\"}]"));
    CHECK(r.text.rfind("{\"doctor_schema\":2,\"headline\":\"No stack can use a GPU: no NVIDIA driver was found\",",
                       0) == 0);
    CHECK(contains(r.text, ",\"verdict\":{\"exit_code\":1,\"name\":\"no_gpu\","));
    CHECK(r.text.substr(r.text.size() - 3) == "}}\n");
  }
}

TEST_CASE(
    "probe_in_child in a program: CUSHIM_PROBE_PROGRAM names the doctor; without one, or a relative one, a note") {
  temp_dir tree;
  const std::string crashing = crashing_cudnn(tree, "crashing_segv");
  std::map<std::string, std::string> env = {
      {"CUSHIM_SEARCH_PATH", tree.path("probe café 用户\\crashing_segv") + ";" + fixture_dir("cudnn_good")},
      {"CUSHIM_CUDART_PATH", fixture_dir("cudart_good")},
      {"CUSHIM_PROBE_IN_CHILD", "1"},
      {"CUSHIM_PROBE_PROGRAM", CUSHIM_DOCTOR}};
  probe_output out = run_probe(env);
  INFO(out.text);
  CHECK(out.all("cudnn.attempt") ==
        std::vector<std::string>{
            "CUSHIM_SEARCH_PATH[0]|" + crashing + "|crashed|" + crashing_copies[0].second + in_child,
            "CUSHIM_SEARCH_PATH[1]|" + fixture_dir("cudnn_good") + "\\" + cudnn + "|loaded|cuDNN 9.19.0"});
  CHECK_FALSE(contains(out.text, "NOTE: probe_in_child"));

  env["CUSHIM_SEARCH_PATH"] = fixture_dir("cudnn_good");  // no program: the good copy, loaded in this process
  env.erase("CUSHIM_PROBE_PROGRAM");
  probe_output alone = run_probe(env);
  INFO(alone.text);
  CHECK(alone.get("cudnn.path") == fixture_dir("cudnn_good") + "\\" + cudnn);
  CHECK(contains(alone.text,
                 "\nNOTE: probe_in_child: Windows has no fork, and no probe_program (options.probe_program or "
                 "CUSHIM_PROBE_PROGRAM) names a program that serves its requests; candidates are loaded in this "
                 "process, as without it\n"));

  env["CUSHIM_PROBE_PROGRAM"] = "cushim-doctor.exe";  // never looked for in the current folder or PATH
  probe_output relative = run_probe(env);
  INFO(relative.text);
  CHECK(relative.get("cudnn.path") == fixture_dir("cudnn_good") + "\\" + cudnn);
  CHECK(contains(relative.text,
                 "\nNOTE: probe_in_child: probe_program cushim-doctor.exe is not an absolute path; candidates are "
                 "loaded in this process, as without it\n"));
}

TEST_CASE(
    "the doctor's discovery: torch whose preload of torch\\lib stops at the missing zlibwapi.dll, in text and JSON") {
  temp_dir tree;
  std::string venv = tree.path("proj\\.venv");
  std::string home = tree.make_dirs("Python311");
  std::ofstream(std::filesystem::path(win_test::widen(home + "\\python.exe"))) << "MZ";
  tree.make_dirs("proj\\.venv\\Scripts");
  std::ofstream(std::filesystem::path(win_test::widen(venv + "\\pyvenv.cfg")))
      << "home = " << home << "\nversion = 3.11.9\n";
  std::ofstream(std::filesystem::path(win_test::widen(venv + "\\Scripts\\python.exe"))) << "MZ";
  std::string lib = tree.make_dirs("proj\\.venv\\Lib\\site-packages\\torch\\lib");
  std::ofstream(std::filesystem::path(win_test::widen(lib + "\\..\\version.py")))
      << "__version__ = '2.1.0+cu118'\ncuda = '11.8'\nhip = None\n";
  tree.copy(fixture_dir("discovery") + "\\c10.dll", "proj\\.venv\\Lib\\site-packages\\torch\\lib\\c10.dll");
  tree.copy(fixture_dir("discovery\\torch_cu118") + "\\torch_cuda.dll",
            "proj\\.venv\\Lib\\site-packages\\torch\\lib\\torch_cuda.dll");
  tree.copy_folder(fixture_dir("cudnn8_good"), "proj\\.venv\\Lib\\site-packages\\torch\\lib");
  tree.copy(fixture_dir("cudnn8_deps") + "\\cublasLt64_11.dll",
            "proj\\.venv\\Lib\\site-packages\\torch\\lib\\cublasLt64_11.dll");
  tree.copy(fixture_dir("cudnn8_deps") + "\\cublas64_11.dll",
            "proj\\.venv\\Lib\\site-packages\\torch\\lib\\cublas64_11.dll");
  std::string dist_info = tree.make_dirs("proj\\.venv\\Lib\\site-packages\\torch-2.1.0+cu118.dist-info");
  std::ofstream(std::filesystem::path(win_test::widen(dist_info + "\\METADATA")))
      << "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0+cu118\n\n";
  std::map<std::string, std::string> env = fixtures_env();
  env["VIRTUAL_ENV"] = venv;
  env["PYENV_ROOT"] = "";  // Wine passes on the Linux one
  env["ProgramFiles"] = tree.make_dirs("Program Files");
  env["USERPROFILE"] = tree.make_dirs("Users\\user");
  probe_output r = run_program(CUSHIM_DOCTOR, env);
  INFO(r.text);
  std::string what =
      "import torch fails: OSError: [WinError 126] The specified module could not be found. Error loading \"" + lib +
      "\\cudnn_adv_infer64_8.dll\" or one of its dependencies.";
  CHECK(contains(r.text, "\nPython environments (from their files; nothing was run)\n"));
  CHECK(contains(r.text,
                 "\n    torch 2.1.0+cu118 (CUDA 11.8)\n      WARNING: " + what + "\n        file: " + lib +
                     "\\cudnn_adv_infer64_8.dll\n        why:  torch loads every DLL in " + lib +
                     " first, in name order; " + lib +
                     "\\cudnn_adv_infer64_8.dll needs cudnn_ops_infer64_8.dll, which needs zlibwapi.dll, which is "
                     "not in any of: " +
                     lib + ", " + home + ", "));
  CHECK(contains(r.text, "\n  torch 2.1.0+cu118 in " + venv + ": " + what + "\n"));  // in the answer, first
  CHECK(r.exit_code == 1);
  probe_output j = run_program(CUSHIM_DOCTOR, env, {"--json"});
  std::string quoted_what;  // as JSON writes it: backslashes and quotes escaped
  for (char c : what) quoted_what += c == '\\' || c == '"' ? std::string("\\") + c : std::string(1, c);
  CHECK(contains(j.text, "\"code\":\"import_fails\",\"what\":\"" + quoted_what + "\""));
  probe_output quiet = run_program(CUSHIM_DOCTOR, env, {"--no-discover"});
  CHECK_FALSE(contains(quiet.text, "Python environments ("));
}

// The article's machine (support/article_machine.hpp): the doctor built with cuDNN 9 and CUDA 13
// headers, whose own releases are on no program of this machine: they are notes, and the verdict
// is about the reader's stacks. As it should be, nothing is a warning; with PyCharm's project
// interpreter on conda's base, that is the one problem.
TEST_CASE("the article's machine as it should be, and with PyCharm's interpreter on conda's base") {
  win_test::article_machine m;
  std::string headline =
      "torch in " + m.env_dir + " uses the GeForce RTX 3060 with cuDNN 8.9.7 from torch's own folder";
  probe_output r = run_program(CUSHIM_DOCTOR, m.env, {}, m.project);
  INFO(r.text);
  CHECK(r.text.rfind(headline + "\n", 0) == 0);
  CHECK(contains(r.text, "; driver 522.06 (" + m.windows + "\\System32\\nvcuda.dll), supports CUDA up to 11.8\n"));
  CHECK(contains(r.text, "\n  cuDNN 8.5.0, CUDA 11: " + m.bin + "\\cudnn64_8.dll; the CUDA 11.8.0 toolkit " + m.cuda));
  CHECK(contains(r.text,
                 "    note: cuDNN 8.5.0 was validated with CUDA 11.0 - 11.7 (cuDNN 8.5.0 support matrix "
                 "(docs.nvidia.com/deeplearning/cudnn/archives/cudnn-850/support-matrix)); it runs on CUDA 11.8 "
                 "through minor version compatibility"));
  CHECK(
      contains(r.text, "\n  PyCharm's interpreter for " + m.project + ": " + m.env_dir + "\\python.exe (" + m.env_dir +
                           "), from " + m.project +
                           "\\.idea\\misc.xml (\"Python 3.10 (torch201)\") and the jdk.table.xml of PyCharm2023.2\n"));
  CHECK(contains(r.text, "      note: torch uses the cuDNN 8.9.7 in its own folder " + m.lib +
                             ", not the cuDNN 8.5.0 copied into " + m.cuda +
                             ": that copy changes nothing for torch\n"));
  CHECK_FALSE(contains(r.text, "WARNING"));
  CHECK(contains(r.text, "\nverdict: GPU WORKS (exit 0): " + headline + "\n"));
  CHECK(r.exit_code == 0);

  m.pycharm_interpreter("Python 3.11 (base)");
  probe_output base = run_program(CUSHIM_DOCTOR, m.env, {}, m.project);
  INFO(base.text);
  std::string what = "PyCharm runs " + m.project + " with " + m.base + "\\python.exe (conda " + m.base +
                     "), which has no CUDA framework; torch 2.0.1+cu118 is in " + m.env_dir;
  CHECK(base.text.rfind(headline + "\n  the machine: " + what +
                            "\n    fix: in PyCharm, Settings > Project: cudnn_test > Python Interpreter > Add "
                            "Interpreter > Add Local Interpreter, and choose " +
                            m.env_dir + "\\python.exe (Conda Environment, or Select existing)\n",
                        0) == 0);
  CHECK(
      contains(base.text, "  WARNING: " + what + "\n    file: " + m.project +
                              "\\.idea\\misc.xml\n    why:  PyCharm's "
                              "project interpreter (" +
                              m.project +
                              "\\.idea\\misc.xml names \"Python 3.11 (base)\", and "
                              "the jdk.table.xml of PyCharm2023.2 gives its path) runs the project's code, its console "
                              "and its run configurations: importing the framework fails there (No module named ...), "
                              "whatever else the machine has\n"));
  CHECK(contains(base.text,
                 "\nverdict: GPU WORKS, WITH PROBLEMS (exit 2): " + headline + "; 1 problem (above) of the machine\n"));
  CHECK(base.exit_code == 2);
}

// The reader ran setx, which saved PATH for programs started from then on; PyCharm (and what it
// starts) still has the PATH of before. Then setx cutting PATH at 1024 characters. With saved
// values no program can use as they are: a REG_SZ with %CUDA_PATH%, an empty one, a REG_DWORD.
TEST_CASE("the article's machine with PATH saved by setx after PyCharm started, and cut at 1024 (the registry)") {
  win_test::article_machine m;
  std::string cudnn_bin = m.unpacked_cudnn(true);
  std::string headline =
      "torch in " + m.env_dir + " uses the GeForce RTX 3060 with cuDNN 8.9.7 from torch's own folder";
  {
    win_test::saved_user_variables saved;
    saved.set_string("PATH", cudnn_bin + ";%CUDA_PATH%\\bin");
    saved.set_string("CUDNN_HOME", "");
    saved.set_dword("CUDA_PATH_V12_1", 1);
    probe_output r = run_program(CUSHIM_DOCTOR, m.env, {}, m.project);
    INFO(r.text);
    std::string what =
        "PATH in the registry (HKCU\\Environment) has " + cudnn_bin + ", which this process's PATH lacks";
    std::string fix =
        "close every window of the program you start Python or your build from (PyCharm, VS Code, the Anaconda Prompt "
        "or the terminal) and start it again, so that it reads the saved variables anew; signing out and in again "
        "restarts all of them";
    CHECK(r.text.rfind(headline + "\n  the machine: " + what + "\n    fix: " + fix + "\n", 0) == 0);
    CHECK(contains(r.text,
                   "  WARNING: " + what + "\n    file: " + cudnn_bin +
                       "\n    why:  Windows gives a program the variables of the moment it started: setx and the "
                       "Environment Variables dialog change the saved ones, which only programs started afterwards "
                       "get. This process, and a PyCharm, VS Code, Anaconda Prompt or terminal started before the "
                       "change (with the Python it runs), lack it: what is there (cublas64_11.dll, cublasLt64_11.dll, "
                       "cudnn64_8.dll, ...) is not found by name, as if it were not installed\n"));
    CHECK(contains(r.text,
                   "  note: HKCU\\Environment\\CUDA_PATH_V12_1 is a REG_DWORD value, not a string (REG_SZ or "
                   "REG_EXPAND_SZ): it names no folder, and the doctor leaves it out\n"));
    CHECK(contains(r.text,
                   "  note: PATH in the registry (HKCU\\Environment) is a REG_SZ value with %...% in it: Windows "
                   "expands %NAME% only in REG_EXPAND_SZ values, so programs get those entries as written, naming no "
                   "folder\n"));
    CHECK(contains(r.text, "  note: HKCU\\Environment\\CUDNN_HOME is empty: programs get an empty CUDNN_HOME\n"));
    CHECK(contains(r.text, "\n  cuDNN 8.5.0, CUDA 11: " + cudnn_bin +
                               "\\cudnn64_8.dll; copied by hand: no package, toolkit, environment or framework records "
                               "it;"));
    CHECK(r.exit_code == 2);
  }
  {
    win_test::saved_user_variables saved;
    std::string path;
    for (int i = 0; path.size() < 990; ++i)
      path += m.tree.path("Program Files\\Tool" + std::to_string(i) + "\\bin") + ";";
    path += "C:\\cudnn\\8.5.0.96\\cuda\\bin";
    path.resize(1024);
    std::string last = path.substr(path.rfind(';') + 1);
    saved.set_string("PATH", path, REG_EXPAND_SZ);
    probe_output r = run_program(CUSHIM_DOCTOR, m.env, {}, m.project);
    INFO(r.text);
    CHECK(
        contains(r.text,
                 "  WARNING: PATH in the registry (HKCU\\Environment) is exactly 1024 characters long: setx cut it "
                 "there, in the middle of its last entry " +
                     last + "\n    file: " + last +
                     "\n    why:  setx writes at most 1024 characters and drops the rest (\"WARNING: The data being "
                     "saved is truncated to 1024 characters.\"): every entry after the cut is gone from PATH for each "
                     "program started since\n    fix:  set PATH again in System Properties > Environment Variables "
                     "(which has no such limit), adding back the entries lost after the cut (such as the CUDA and "
                     "cuDNN bin folders)\n"));
    CHECK(r.exit_code == 2);
  }
}

// A cuDNN 8.5 unpacked by hand, its bin folder on PATH and zlibwapi.dll nowhere, for a doctor built
// with cuDNN 9 headers; Visual Studio Build Tools 2022 installed (cl.exe 19.40, VS 17.10) but not
// on PATH, and a CUDA 11.8 whose nvcc accepts _MSC_VER below 1940 (--build); run from another
// folder than the project's, which --project names.
TEST_CASE("a cuDNN 8.5 on PATH without zlibwapi.dll, and Build Tools without cl.exe on PATH (--build)") {
  win_test::article_machine m;
  for (const char* dll : {"cudnn64_8.dll", "zlibwapi.dll"}) {
    std::filesystem::remove(std::filesystem::path(win_test::widen(m.bin + "\\" + dll)));
  }
  for (const char* sub : {"ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer", "adv_train"}) {
    std::filesystem::remove(std::filesystem::path(win_test::widen(m.bin + "\\cudnn_" + sub + "64_8.dll")));
  }
  std::filesystem::remove(std::filesystem::path(win_test::widen(m.cuda + "\\include\\cudnn_version.h")));
  m.write(m.cuda + "\\include\\crt\\host_config.h",
          "#if defined(_WIN32)\n\n#if _MSC_VER < 1910 || _MSC_VER >= 1940\n\n#error -- unsupported Microsoft Visual "
          "Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!\n\n#endif\n#endif\n");
  std::string cudnn_bin = m.unpacked_cudnn(false);
  std::string tools = m.tree.make_dirs("Program Files (x86)\\Microsoft Visual Studio\\2022\\BuildTools");
  std::string cl = m.tree.copy(m.fixture_folder("discovery\\msvc") + "\\cl.dll",
                               m.relative(tools) + "\\VC\\Tools\\MSVC\\14.40.33807\\bin\\Hostx64\\x64\\cl.exe");
  std::string escaped;  // as JSON writes it
  for (char c : tools) escaped += c == '\\' ? std::string("\\\\") : std::string(1, c);
  m.write(m.env["ProgramData"] + "\\Microsoft\\VisualStudio\\Packages\\_Instances\\2a9f1c77\\state.json",
          "{\"installationName\": \"VisualStudio/17.10.0+34916.146\", \"installationPath\": \"" + escaped +
              "\", \"installationVersion\": \"17.10.34916.146\", \"launchParams\": {}}\n");
  m.env["PATH"] = cudnn_bin + ";" + m.bin + ";C:\\windows\\system32";
  probe_output r = run_program(CUSHIM_DOCTOR, m.env, {"--build", "--project", m.project}, m.tree.path());
  INFO(r.text);
  CHECK(contains(r.text, "\n  PyCharm's interpreter for " + m.project + ": " + m.env_dir + "\\python.exe ("));
  std::string headline =
      "torch in " + m.env_dir + " uses the GeForce RTX 3060 with cuDNN 8.9.7 from torch's own folder\n";
  CHECK(r.text.rfind(headline + "  programs built with cushim and cuDNN 8.5.0's headers refuse " + cudnn_bin +
                         "\\cudnn64_8.dll (PATH[0]), the first cuDNN their search meets, and load none\n    fix: "
                         "zlibwapi.dll is zlib for Windows",
                     0) == 0);
  CHECK(contains(r.text, "\n  PATH: cuDNN 8.5.0 (headers 8.5.0, built for CUDA 11), " + cudnn_bin +
                             "\\cudnn64_8.dll\n    import library: " + m.tree.path("cudnn\\8.5.0.96\\cuda\\lib\\x64") +
                             "\\cudnn.lib (links to cudnn64_8.dll)\n    imports: cublasLt64_11.dll (" + cudnn_bin +
                             "\\cublasLt64_11.dll), zlibwapi.dll (not found), cublas64_11.dll (" + cudnn_bin +
                             "\\cublas64_11.dll)\n"));
  std::string what = "cuDNN 8.5.0 in " + cudnn_bin + " needs zlibwapi.dll, which is not found";
  CHECK(
      contains(r.text, "\n  the machine: " + what +
                           "\n    fix: zlibwapi.dll is zlib for Windows, which cuDNN 8.3 to 8.9 need and do not ship: "
                           "put the x64 zlibwapi.dll into the folder of the cuDNN DLLs (NVIDIA's cuDNN installation "
                           "guide, \"Installing Zlib\")\n"));
  CHECK(contains(r.text, "  WARNING: " + what + "\n    file: " + cudnn_bin + "\\zlibwapi.dll\n    why:  "));
  CHECK(contains(r.text,
                 "A program that loads this cuDNN fails when cuDNN loads those files: \"Could not locate "
                 "zlibwapi.dll. Please make sure it is in your library path!\", and the process ends\n"));
  CHECK(contains(r.text,
                 "\n  building from source: Visual Studio Build Tools 2022 has cl.exe 19.40.33807, but cl.exe "
                 "is not on PATH\n    fix: build from the \"x64 Native Tools Command Prompt\" of Visual "
                 "Studio Build Tools 2022, or run \"" +
                     tools +
                     "\\VC\\Auxiliary\\Build\\vcvars64.bat\" in the prompt first; then set "
                     "DISTUTILS_USE_SDK=1 there\n"));
  CHECK(contains(r.text,
                 "\n  building from source: cl.exe 19.40.33807 (_MSC_VER 1940) is newer than the CUDA 11.8.0 "
                 "toolkit " +
                     m.cuda + " accepts (_MSC_VER below 1940)\n"));
  CHECK(contains(r.text, "\n  installed: Visual Studio Build Tools 2022 17.10.34916.146 (" + tools +
                             "): cl.exe 19.40.33807 (" + cl + ")\n  cl.exe on PATH: none\n"));
  CHECK(r.exit_code == 2);
}
