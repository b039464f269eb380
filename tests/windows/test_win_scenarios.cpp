// Windows scenarios with cuDNN 9 and the CUDA runtime, each in a fresh cushim_probe process: the
// sub-library check, a copy already loaded by someone else, the places conda, pip and the
// installers use, CUDA_PATH of another major, and what the version resource says.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/win_probe.hpp"

using win_test::probe_output;
using win_test::run_probe;
using win_test::temp_dir;

namespace {

const std::string cudnn = CUSHIM_CUDNN_FILE;
const std::string cudart = CUSHIM_CUDART_FILE;
const std::string cudnn_major = std::to_string(CUDNN_MAJOR);
const std::string cuda_major = std::to_string(CUDART_VERSION / 1000);
const std::vector<std::string> sub_names = {
    "graph", "ops", "cnn", "adv", "heuristic", "engines_precompiled", "engines_runtime_compiled"};

std::string sub_file(const std::string& name) { return "cudnn_" + name + "64_" + cudnn_major + ".dll"; }

// "file|usable|preloaded|version|path|problem" for one sub-library.
std::string sub_line(const probe_output& out, const std::string& name) {
  for (const std::string& line : out.all("cudnn.sublibrary")) {
    if (line.rfind(sub_file(name) + "|", 0) == 0) return line;
  }
  return "<none>";
}

std::string probe_dir() {
  std::string dir = std::string(CUSHIM_PROBE).substr(0, std::string(CUSHIM_PROBE).find_last_of("/\\"));
  for (char& c : dir) c = c == '/' ? '\\' : c;
  return dir;
}

}  // namespace

TEST_CASE("a complete cuDNN outside PATH: each sub-library preloaded from beside it, with its version") {
  temp_dir tree;
  std::string bin = tree.path("cudnn\\bin");
  tree.copy_cudnn("cudnn\\bin");
  probe_output out = run_probe({{"CUDNN_PATH", tree.path("cudnn")}, {"PATH", tree.make_dirs("empty")}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.found_by") == "CUDNN_PATH\\bin");
  REQUIRE(out.all("cudnn.sublibrary").size() == sub_names.size());
  std::string v = std::to_string(CUDNN_VERSION);
  CHECK(sub_line(out, "graph") == sub_file("graph") + "|1|1|" + v + "|" + bin + "\\" + sub_file("graph") + "|");
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|1|1|" + v + "|" + bin + "\\" + sub_file("cnn") + "|");
  // No version resource: the version is unknown, which is no reason to refuse it.
  CHECK(sub_line(out, "heuristic") == sub_file("heuristic") + "|1|1|0|" + bin + "\\" + sub_file("heuristic") + "|");
  CHECK(out.get("cudnnGetVersion") == v);
}

TEST_CASE("cuDNN's folder on PATH: its own search finds the sub-libraries, nothing is preloaded") {
  temp_dir tree;
  std::string bin = tree.path("cudnn");
  tree.copy_cudnn("cudnn");
  probe_output out = run_probe({{"PATH", bin}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.found_by") == "PATH[0]");
  for (const std::string& name : sub_names) {
    CHECK(sub_line(out, name).rfind(sub_file(name) + "|1|0|", 0) == 0);
  }
}

TEST_CASE("only the main DLL copied: cuDNN is refused before it can abort, each sub-library named") {
  temp_dir tree;
  std::string main = tree.copy(win_test::fixture("cudnn_good", cudnn), "only\\" + cudnn);
  std::string empty = tree.make_dirs("empty");
  probe_output out = run_probe({{"CUSHIM_SEARCH_PATH", tree.path("only")}, {"PATH", empty}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "sublibrary_unusable");
  CHECK(out.get("cudnnGetVersion") == "0");
  std::string looked_in = "(looked in: " + probe_dir() + ", C:\\windows\\system32, C:\\windows, " + empty + ")";
  for (const std::string& name : sub_names) {
    CHECK(sub_line(out, name) == sub_file(name) + "|0|0|0||" + sub_file(name) + " is not beside " + main +
                                     " and cuDNN's own search would not find it " + looked_in);
  }
  CHECK(out.has("cudnn.attempt", "CUSHIM_SEARCH_PATH[0]|" + main + "|sublibrary_unusable|its root sub-library " +
                                     sub_file("graph") + " is unusable: " + sub_file("graph") + " is not beside " +
                                     main + " and cuDNN's own search would not find it " + looked_in +
                                     ". cuDNN would abort the process at its first call"));
}

TEST_CASE("a cuDNN already loaded from another folder is reused, and the override that lost is reported") {
  temp_dir tree;
  std::string other = tree.copy_cudnn("other");
  std::string wanted = tree.copy_cudnn("wanted");
  probe_output out = run_probe({{"CUSHIM_CUDNN_PATH", tree.path("wanted")}}, {"--preload", other});
  INFO(out.text);
  CHECK(out.get("preload") == "loaded|" + other);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == other);
  CHECK(out.get("cudnn.found_by") == "already loaded in this process");
  CHECK(out.all("cudnn.attempt").at(0).rfind("already loaded in this process|" + other + "|reused|", 0) == 0);
  CHECK(out.has("cudnn.problem", "ok|0|CUSHIM_CUDNN_PATH names " + wanted +
                                     ", but another copy is already loaded in this process; cushim uses that one"));
  CHECK(out.text.find("a library linked with the import library cudnn.lib") != std::string::npos);
}

TEST_CASE("CUDA_PATH at another CUDA major while CUDA_PATH_V<major>_<minor> exists: the compiled major wins") {
  temp_dir tree;
  std::string previous = win_test::fixture("cudart_previous", "");
  std::string previous_file;
  for (const char* name : {"cudart64_110.dll", "cudart64_11.dll", "cudart64_12.dll", "cudart64_13.dll"}) {
    if (std::filesystem::exists(std::filesystem::path(win_test::widen(previous + name)))) previous_file = name;
  }
  REQUIRE_FALSE(previous_file.empty());
  std::string stale = tree.copy(previous + previous_file, "old\\bin\\" + previous_file);
  std::string mine = tree.copy(win_test::fixture("cudart_good", cudart), "mine\\bin\\" + cudart);
  std::string variable = "CUDA_PATH_V" + cuda_major + "_0";
  probe_output out = run_probe({{"CUDA_PATH", tree.path("old")}, {variable, tree.path("mine")}});
  INFO(out.text);
  CHECK(out.get("cudart.code") == "ok");
  CHECK(out.get("cudart.path") == mine);
  CHECK(out.get("cudart.found_by") == variable + "\\bin");
  CHECK(out.has("cudart.other", "CUDA_PATH\\bin|" + stale + "|other_major"));
}

TEST_CASE("a runtime of another major renamed to this one's file name is caught by its version resource") {
  temp_dir tree;
  std::string previous = std::to_string(CUDART_VERSION / 1000 - 1);
  std::string original = previous == "11" ? "cudart64_110.dll" : "cudart64_" + previous + ".dll";
  std::string renamed = tree.copy(win_test::fixture("cudart_previous", original), "r\\" + cudart);
  probe_output out = run_probe({}, {"--cudart-file", renamed});
  INFO(out.text);
  CHECK(out.get("cudart.code") == "override_failed");
  CHECK(out.all("cudart.attempt") ==
        std::vector<std::string>{
            "options.files[cudart]|" + renamed + "|wrong_version|a renamed copy: its version resource says it is " +
            original + " (FileVersion " + previous + ".6.0.0), another major; this program needs a real " + cudart});
}

TEST_CASE("a runtime that reports version 0 (no driver) is versioned from its version resource") {
  probe_output out = run_probe({}, {"--cudart-file", win_test::fixture("cudart_zero", cudart)});
  INFO(out.text);
  CHECK(out.get("cudart.code") == "ok");
  CHECK(out.get("cudart.version") == std::to_string(CUDART_VERSION / 1000 * 1000 + 20));
  CHECK(out.get("cudart.version_source") == "version resource (cudaRuntimeGetVersion reported 0)");
}

TEST_CASE("pip's other installs: the user's site-packages, a per-user interpreter's, PyTorch's torch\\lib") {
  temp_dir tree;
  std::string user = tree.copy_cudnn("appdata\\Python\\Python312\\site-packages\\nvidia\\cudnn\\bin");
  probe_output out = run_probe({{"APPDATA", tree.path("appdata")}});
  CHECK(out.get("cudnn.path") == user);
  CHECK(out.get("cudnn.found_by") == "%APPDATA%\\Python\\Python312 pip nvidia\\cudnn\\bin");

  std::string torch = tree.copy_cudnn("local\\Programs\\Python\\Python311\\Lib\\site-packages\\torch\\lib");
  out = run_probe({{"LOCALAPPDATA", tree.path("local")}});
  CHECK(out.get("cudnn.path") == torch);
  CHECK(out.get("cudnn.found_by") == "%LOCALAPPDATA%\\Programs\\Python\\Python311 torch\\lib");
}

TEST_CASE("conda, pip and the CUDA toolkit's installer folder") {
  temp_dir tree;
  std::string conda = tree.copy_cudnn("conda\\Library\\bin");
  probe_output out = run_probe({{"CONDA_PREFIX", tree.path("conda")}});
  CHECK(out.get("cudnn.path") == conda);
  CHECK(out.get("cudnn.found_by") == "CONDA_PREFIX\\Library\\bin");

  std::string pip = tree.copy_cudnn("venv\\Lib\\site-packages\\nvidia\\cudnn\\bin");
  std::string pip_cudart = tree.copy(win_test::fixture("cudart_good", cudart),
                                     "venv\\Lib\\site-packages\\nvidia\\cuda_runtime\\bin\\" + cudart);
  out = run_probe({{"VIRTUAL_ENV", tree.path("venv")}});
  CHECK(out.get("cudnn.path") == pip);
  CHECK(out.get("cudnn.found_by") == "VIRTUAL_ENV pip nvidia\\cudnn\\bin");
  CHECK(out.get("cudart.path") == pip_cudart);
  CHECK(out.get("cudart.found_by") == "VIRTUAL_ENV pip nvidia\\cuda_runtime\\bin");

  // Wine resets %ProgramFiles% in every new process, so the files go into the prefix's own.
  temp_dir toolkit(std::string(cushim::detail::platform::get_environment("ProgramFiles")) +
                   "\\NVIDIA GPU Computing Toolkit");
  std::string newest =
      toolkit.copy(win_test::fixture("cudart_good", cudart), "CUDA\\v" + cuda_major + ".2\\bin\\" + cudart);
  toolkit.copy(win_test::fixture("cudart_good", cudart), "CUDA\\v" + cuda_major + ".1\\bin\\" + cudart);
  out = run_probe({});
  CHECK(out.get("cudart.path") == newest);
  CHECK(out.get("cudart.found_by") ==
        "%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA\\v" + cuda_major + ".2\\bin (well-known)");
}

TEST_CASE("CUSHIM_TRUSTED_DIRS_ONLY=1 refuses a DLL in a folder every user may write to, naming who") {
  temp_dir tree;
  std::string good = tree.copy_cudnn("good");
  std::string open_dir = std::string(CUSHIM_FIXTURE_DIR) + "/world_writable";
  std::map<std::string, std::string> env{{"CUSHIM_SEARCH_PATH", open_dir + ";" + tree.path("good")}};
  env["CUSHIM_TRUSTED_DIRS_ONLY"] = "1";
  probe_output out = run_probe(env);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == good);
  CHECK(out.all("cudnn.attempt").at(0) == "CUSHIM_SEARCH_PATH[0]|" + open_dir + "\\" + cudnn + "|untrusted_location|" +
                                              open_dir +
                                              " is writable by Everyone (S-1-1-0); trusted_dirs_only refuses it");
  env.erase("CUSHIM_TRUSTED_DIRS_ONLY");  // without it, the first copy is used
  out = run_probe(env);
  CHECK(out.get("cudnn.path") == open_dir + "\\" + cudnn);
}

TEST_CASE("cudart64_110.dll beside this major's runtime: listed as another major, never loaded") {
  if (CUDART_VERSION / 1000 == 11) return;  // it is this build's own file name then
  temp_dir tree;
  std::string old = tree.copy(win_test::fixture("cudart_11", "cudart64_110.dll"), "bin\\cudart64_110.dll");
  std::string mine = tree.copy(win_test::fixture("cudart_good", cudart), "bin\\" + cudart);
  probe_output out = run_probe({{"CUSHIM_SEARCH_PATH", tree.path("bin")}});
  INFO(out.text);
  CHECK(out.get("cudart.path") == mine);
  CHECK(out.get("cudart.version") == std::to_string(CUDART_VERSION));
  CHECK(out.has("cudart.other", "CUSHIM_SEARCH_PATH[0]|" + old + "|other_major"));
}

TEST_CASE("cuBLASLt and NVRTC, which cuDNN 9 loads by name for some engines, are looked for where cuDNN would look") {
  temp_dir tree;
  tree.copy_cudnn("c");
  std::string empty = tree.make_dirs("empty");
  std::string cublaslt = "cublasLt64_" + cuda_major + ".dll", nvrtc = CUSHIM_NVRTC_FILE;
  std::string warning = "ok|0|cuDNN loads " + cublaslt +
                        " by name when some of its engines run (matrix multiplications, some convolutions, RNNs, "
                        "attention), and its search would not find it";
  std::string nvrtc_warning = "ok|0|cuDNN loads " + nvrtc +
                              " by name when its runtime-compiled engines run (fused and generated kernels), and its "
                              "search would not find it";
  probe_output out = run_probe({{"CUSHIM_SEARCH_PATH", tree.path("c")}, {"PATH", empty}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.has("cudnn.problem", warning));
  CHECK(out.has("cudnn.problem", nvrtc_warning));
  CHECK(out.text.find("    why:  looked in: " + probe_dir() + ", C:\\windows\\system32, C:\\windows, " + empty +
                      "; those engines fail when first used, the rest of cuDNN works\n") != std::string::npos);

  std::string cuda_bin = tree.path("cuda\\bin");
  tree.copy(win_test::fixture("cudnn8_deps", "cublasLt64_11.dll"), "cuda\\bin\\" + cublaslt);  // any x64 DLL
  tree.copy(win_test::fixture("cudnn8_deps", "cublasLt64_11.dll"), "cuda\\bin\\" + nvrtc);
  out = run_probe({{"CUSHIM_SEARCH_PATH", tree.path("c")}, {"PATH", cuda_bin}});
  CHECK(out.get("cudnn.code") == "ok");
  CHECK_FALSE(out.has("cudnn.problem", warning));
  CHECK_FALSE(out.has("cudnn.problem", nvrtc_warning));
}

TEST_CASE("a 32-bit copy of a sub-library first on PATH is passed over by cuDNN's search and named") {
  temp_dir tree;
  std::string bin = tree.path("cudnn\\bin");
  tree.copy_cudnn("cudnn\\bin");
  std::string x86 = tree.copy(win_test::fixture("zlib_x86", "zlibwapi.dll"), "x86\\" + sub_file("ops"));
  probe_output out = run_probe({{"CUDNN_PATH", tree.path("cudnn")}, {"PATH", tree.path("x86")}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  // Outside PATH, every sub-library is preloaded from beside cuDNN; the 32-bit one is named.
  CHECK(sub_line(out, "ops").rfind(sub_file("ops") + "|1|1|" + std::to_string(CUDNN_VERSION) + "|" + bin + "\\", 0) ==
        0);
  CHECK(out.all("cudnn.shadowing") ==
        std::vector<std::string>{sub_file("ops") + "|" + x86 + "|0|a DLL for x86 (32-bit); this process is x64"});
}

TEST_CASE("a file that is no DLL first on PATH ends cuDNN's search for that name: named, the sibling preloaded") {
  temp_dir tree;
  std::string bin = tree.path("cudnn");
  tree.copy_cudnn("cudnn");
  std::string text = tree.path("text\\" + sub_file("cnn"));
  tree.make_dirs("text");
  { std::ofstream(std::filesystem::path(win_test::widen(text))) << "left over from an unzip\n"; }
  // cuDNN's own folder is on PATH too, after the text file: the system loader never gets there.
  probe_output out = run_probe({{"CUSHIM_SEARCH_PATH", bin}, {"PATH", tree.path("text") + ";" + bin}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(sub_line(out, "cnn").rfind(sub_file("cnn") + "|1|1|" + std::to_string(CUDNN_VERSION) + "|" + bin + "\\", 0) ==
        0);
  CHECK(sub_line(out, "ops").rfind(sub_file("ops") + "|1|0|", 0) == 0);  // found through PATH: not preloaded
  CHECK(out.all("cudnn.shadowing") ==
        std::vector<std::string>{sub_file("cnn") + "|" + text +
                                 "|0|not a DLL: no MZ signature: the file starts with 6c 65 66 74; the system loader "
                                 "stops at it"});
}

TEST_CASE("a sub-library cushim does not know, beside cuDNN, is listed and checked like the others") {
  temp_dir tree;
  std::string bin = tree.path("cudnn");
  tree.copy_cudnn("cudnn");
  std::string extra = "cudnn_extra64_" + cudnn_major + ".dll";
  tree.copy(win_test::fixture("cudnn_good", sub_file("heuristic")), "cudnn\\" + extra);
  probe_output out = run_probe({{"CUSHIM_SEARCH_PATH", bin}, {"PATH", tree.make_dirs("empty")}});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.all("cudnn.unknown_sublibrary") == std::vector<std::string>{extra});
  CHECK(out.has("cudnn.sublibrary", extra + "|1|1|0|" + bin + "\\" + extra + "|"));
}
