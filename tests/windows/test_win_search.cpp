// The Windows search order and pre-load checks, one fresh cushim_probe process per scenario (cushim
// loads once per process), each with its own environment, folders and current folder.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <string>

#include "support/win_probe.hpp"

using win_test::run_probe;
using win_test::temp_dir;

namespace {

const std::string cudnn = CUSHIM_CUDNN_FILE;
const std::string cudart = CUSHIM_CUDART_FILE;
const std::string cuda_major = std::to_string(CUDART_VERSION / 1000);
const std::string good_cudnn = win_test::fixture("cudnn_good", cudnn);
const std::string good_cudart = win_test::fixture("cudart_good", cudart);

std::string attempt(const std::string& rule, const std::string& path, const char* outcome) {
  return rule + "|" + path + "|" + outcome + "|";
}

}  // namespace

TEST_CASE("CUSHIM_SEARCH_PATH comes before CUDA_PATH, which is listed as shadowed") {
  temp_dir tree;
  std::string first = tree.copy_cudnn("first");
  std::string later = tree.copy_cudnn("cuda\\bin");
  auto out = run_probe({{"CUSHIM_SEARCH_PATH", tree.path("first")}, {"CUDA_PATH", tree.path("cuda")}});
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == first);
  CHECK(out.get("cudnn.found_by") == "CUSHIM_SEARCH_PATH[0]");
  CHECK(out.has("cudnn.other", "CUDA_PATH\\bin|" + later + "|shadowed"));
}

TEST_CASE("PATH: quoted entries are used, empty and relative ones skipped and reported, %VAR% expanded") {
  temp_dir tree;
  std::string quoted = tree.make_dirs("with space");
  std::string dll = tree.copy_cudnn("expanded\\lib");
  std::string path = "\"" + quoted + "\";;relative\\dir;%CUSHIM_TEST_ROOT%\\lib;C:\\windows\\system32";
  auto out = run_probe({{"PATH", path}, {"CUSHIM_TEST_ROOT", tree.path("expanded")}});
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == dll);
  CHECK(out.has("cudnn.attempt", attempt("PATH[0]", quoted + "\\" + cudnn, "absent")));
  CHECK(out.has("cudnn.attempt",
                "PATH[1]||skipped_empty|an empty entry means the current folder to the system loader; never searched"));
  CHECK(
      out.has("cudnn.attempt",
              "PATH[2]|relative\\dir|skipped_relative|relative entries depend on the current folder; never searched"));
  CHECK(out.get("cudnn.found_by") == "PATH[3] (%CUSHIM_TEST_ROOT%\\lib)");
  CHECK(out.has("cudnn.problem", "ok|0|PATH[1] has an empty entry, which cushim skipped"));
  CHECK(out.has("cudnn.problem", "ok|0|PATH[2] has a relative entry 'relative\\dir', which cushim skipped"));
}

TEST_CASE("CUDA_PATH_V<major>_<minor>: newest minor first, before CUDA_PATH") {
  temp_dir tree;
  tree.copy(good_cudart, "v0\\bin\\" + cudart);
  std::string newest = tree.copy(good_cudart, "v2\\bin\\x64\\" + cudart);
  std::string plain = tree.copy(good_cudart, "plain\\bin\\" + cudart);
  std::string v0 = "CUDA_PATH_V" + cuda_major + "_0", v2 = "CUDA_PATH_V" + cuda_major + "_2";
  auto out = run_probe({{v0, tree.path("v0")}, {v2, tree.path("v2")}, {"CUDA_PATH", tree.path("plain")}});
  CHECK(out.get("cudart.code") == "ok");
  CHECK(out.get("cudart.path") == newest);
  CHECK(out.get("cudart.found_by") == v2 + "\\bin\\x64");
  CHECK(out.has("cudart.attempt", attempt(v2 + "\\bin", tree.path("v2\\bin\\" + cudart), "absent")));
  CHECK(out.has("cudart.other", v0 + "\\bin|" + tree.path("v0\\bin\\" + cudart) + "|shadowed"));
  CHECK(out.has("cudart.other", "CUDA_PATH\\bin|" + plain + "|shadowed"));
}

TEST_CASE("the cuDNN installer layout, under CUDNN_PATH and under %ProgramFiles%") {
  temp_dir tree;
  std::string mine = tree.copy_cudnn("cudnn\\bin\\" + cuda_major + ".0\\x64");
  tree.copy(good_cudnn, "cudnn\\bin\\9.9\\" + cudnn);  // another CUDA major: never a candidate
  auto out = run_probe({{"CUDNN_PATH", tree.path("cudnn")}});
  CHECK(out.get("cudnn.path") == mine);
  CHECK(out.get("cudnn.found_by") == "CUDNN_PATH\\bin\\" + cuda_major + ".0\\x64");
  CHECK(out.text.find("bin\\9.9") == std::string::npos);

  // Wine resets %ProgramFiles% in every new process, so the files go into the prefix's own.
  temp_dir program_files(std::string(cushim::detail::platform::get_environment("ProgramFiles")) + "\\NVIDIA");
  std::string cudnn_root = "CUDNN\\v" + std::to_string(CUDNN_MAJOR);
  std::string newest = program_files.copy_cudnn(cudnn_root + ".19\\bin\\" + cuda_major + ".1");
  program_files.copy(good_cudnn, cudnn_root + ".2\\bin\\" + cuda_major + ".1\\" + cudnn);
  out = run_probe({});
  CHECK(out.get("cudnn.path") == newest);
  CHECK(out.get("cudnn.found_by") == "%ProgramFiles%\\NVIDIA\\CUDNN\\v" + std::to_string(CUDNN_MAJOR) + ".19\\bin\\" +
                                         cuda_major + ".1 (well-known)");
}

TEST_CASE("a DLL planted in the current folder is never loaded") {
  temp_dir tree;
  std::string planted = tree.copy(good_cudnn, "cwd\\" + cudnn);
  auto out = run_probe({}, {}, tree.path("cwd"));
  CHECK(out.get("cudnn.code") == "not_found");
  CHECK(out.get("cudnnGetVersion") == "0");
  CHECK(out.text.find(planted) == std::string::npos);
  CHECK(out.has("cudnn.attempt", "the system's default DLL folders|" + cudnn +
                                     "|absent|LoadLibraryExW failed with error 126 (ERROR_MOD_NOT_FOUND: the file "
                                     "or a DLL it needs was not found)"));
}

TEST_CASE("a 32-bit DLL is refused before loading, naming both machines") {
  temp_dir tree;
  std::string dll = tree.copy(win_test::fixture("cudnn_x86", cudnn), "x86\\" + cudnn);
  auto out = run_probe({}, {"--cudnn-file", dll});
  CHECK(out.get("cudnn.code") == "override_failed");
  CHECK(out.all("cudnn.attempt") == std::vector<std::string>{"options.files[cudnn]|" + dll +
                                                             "|wrong_architecture|a DLL for x86 (32-bit); this "
                                                             "process is x64"});
}

TEST_CASE("a missing import is named with the DLL that needs it; with it beside, the DLL loads") {
  temp_dir tree;
  std::string dll = tree.copy(win_test::fixture("cudnn_needs_zlib", cudnn), "nz\\" + cudnn);
  auto out = run_probe({}, {"--cudnn-file", dll});
  CHECK(out.get("cudnn.code") == "override_failed");
  std::string probe_dir = std::string(CUSHIM_PROBE).substr(0, std::string(CUSHIM_PROBE).find_last_of("/\\"));
  for (char& c : probe_dir) c = c == '/' ? '\\' : c;
  CHECK(out.all("cudnn.attempt") ==
        std::vector<std::string>{"options.files[cudnn]|" + dll + "|missing_dependency|" + dll +
                                 " needs zlibwapi.dll, which is not in any of: " + tree.path("nz") + ", " + probe_dir +
                                 ", C:\\windows\\system32"});

  tree.copy(win_test::fixture("zlibwapi", "zlibwapi.dll"), "nz\\zlibwapi.dll");
  out = run_probe({}, {"--cudnn-file", dll});
  CHECK(out.get("cudnn.code") == "override_failed");
  CHECK(out.all("cudnn.attempt").at(0).rfind("options.files[cudnn]|" + dll + "|sublibrary_unusable|", 0) == 0);
  tree.copy_cudnn("nz");
  tree.copy(win_test::fixture("cudnn_needs_zlib", cudnn), "nz\\" + cudnn);
  out = run_probe({}, {"--cudnn-file", dll});
  CHECK(out.get("cudnn.identity") == "cudnn_needs_zlib");
  CHECK(out.get("cudnn.code") == "ok");
}

TEST_CASE("a Unicode folder name loads") {
  temp_dir tree;
  std::string dll = tree.copy_cudnn("用户\\café");
  auto out = run_probe({{"CUSHIM_SEARCH_PATH", tree.path("用户\\café")}});
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == dll);
  CHECK(out.get("cudnnGetVersion") == std::to_string(CUDNN_VERSION));
}

TEST_CASE("32 threads' first calls: one search and one load per library") {
  auto out = run_probe({}, {"--cudnn-file", good_cudnn, "--cudart-file", good_cudart, "--mode", "threads", "32"});
  CHECK(out.exit_code == 0);
  CHECK(out.get("searches.cudnn") == "1");
  CHECK(out.get("searches.cudart") == "1");
  CHECK(out.get("searches.other") == "0");
  CHECK(out.get("distinct.cudnnGetVersion") == "1");
  CHECK(out.get("value.cudnnGetVersion") == std::to_string(CUDNN_VERSION));
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudart.code") == "ok");
}
