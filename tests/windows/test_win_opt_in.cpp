// cuBLAS, cuBLASLt, NVRTC and the driver API on Windows, each scenario in a fresh
// cushim_win_probe_all process (every library opted into): the overrides with their Windows file
// names, NVRTC's builtins DLL preloaded from beside it, and nvcuda.dll taken from System32 only.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <map>
#include <string>
#include <vector>

#include "support/opt_in_headers.hpp"
#include "support/plain_libraries.hpp"
#include "support/win_probe.hpp"

using win_test::probe_output;
using win_test::temp_dir;

namespace {

const std::string cuda_major = std::to_string(CUDART_VERSION / 1000);

probe_output run_all(const std::map<std::string, std::string>& env) {
  probe_output out = win_test::run_program(CUSHIM_PROBE_ALL, env, {"--json"});
  CHECK(out.get("report_parity") == "ok");  // every scenario, both renderers
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("each override to an empty folder: its fallbacks, and an ERROR that names it and the Windows file") {
  temp_dir tree;
  std::string empty = tree.make_dirs("empty");
  probe_output out =
      run_all({{"CUSHIM_CUBLAS_PATH", empty}, {"CUSHIM_CUBLASLT_PATH", empty}, {"CUSHIM_NVRTC_PATH", empty}});
  INFO(out.text);
  const std::vector<std::vector<std::string>> cases = {
      {"cublas", "cuBLAS", "CUSHIM_CUBLAS_PATH", CUSHIM_CUBLAS_FILE},
      {"cublasLt", "cuBLASLt", "CUSHIM_CUBLASLT_PATH", CUSHIM_CUBLASLT_FILE},
      {"nvrtc", "NVRTC", "CUSHIM_NVRTC_PATH", CUSHIM_NVRTC_FILE}};
  for (const std::vector<std::string>& c : cases) {
    std::string file = empty + "\\" + c[3];
    CHECK(out.get(c[0] + ".code") == "override_failed");
    CHECK(out.all(c[0] + ".attempt") == std::vector<std::string>{c[2] + "|" + file + "|absent|"});
    CHECK(contains(out.text, "  ERROR: " + c[1] + " was not loaded from the explicit location " + c[2] +
                                 " names; cushim does not fall back to a search when one is given\n    file: " + file +
                                 "\n"));
  }
  CHECK(out.get("call.cublas") == "1");
  CHECK(out.get("call.cublasLt") == "1");
  CHECK(out.get("call.nvrtc") == "11|0.0");
}

TEST_CASE("NVRTC's builtins DLL: a warning when its load by name would miss it, preloaded when beside it") {
  std::string builtins = "nvrtc-builtins64_" + cuda_major + "9.dll";
  temp_dir tree;
  std::string nvrtc = tree.copy(win_test::fixture("nvrtc_other_minor", CUSHIM_NVRTC_FILE), "nvrtc\\" CUSHIM_NVRTC_FILE);
  std::map<std::string, std::string> env = {{"CUSHIM_NVRTC_PATH", tree.path("nvrtc")}};
  probe_output out = run_all(env);
  INFO(out.text);
  CHECK(out.get("nvrtc.code") == "ok");
  CHECK(out.get("call.nvrtc") == "0|" + cuda_major + ".9");
  CHECK(out.get("nvrtc.sublibrary").rfind(builtins + "|0|0|", 0) == 0);
  CHECK(out.has("nvrtc.problem",
                "ok|0|NVRTC loads " + builtins + " by name when it compiles, and would not get a usable copy"));
  CHECK(contains(out.text, "    why:  it is not beside " + nvrtc + ", and NVRTC's load by name would not find it"));

  std::string beside = tree.copy(win_test::fixture("nvrtc_builtins", builtins), "nvrtc\\" + builtins);
  out = run_all(env);
  CHECK(out.get("nvrtc.sublibrary") ==
        builtins + "|1|1|" + std::to_string(CUDART_VERSION / 1000 * 1000 + 90) + "|" + beside + "|");
  CHECK(out.all("nvrtc.problem").empty());
}

TEST_CASE("nvcuda.dll on PATH or under CUDA_PATH is not the driver: System32 only, one search for both sections") {
  temp_dir tree;
  std::string on_path = tree.copy(win_test::fixture("driver_good", "nvcuda.dll"), "path\\nvcuda.dll");
  probe_output out = run_all({{"PATH", tree.path("path")}, {"CUDA_PATH", tree.path("path")}});
  INFO(out.text);
  CHECK(out.get("driver.code") == "not_found");
  std::vector<std::string> attempts = out.all("driver.attempt");
  REQUIRE(attempts.size() == 1);
  CHECK(attempts[0].rfind("System32|", 0) == 0);
  CHECK(attempts[0].find("|absent|") != std::string::npos);
  CHECK(out.get("call.driver") == "303");
  CHECK(contains(out.text, "NVIDIA driver: not found\n"));
  CHECK(contains(out.text,
                 "\"driver\":{\"found\":false,\"path\":\"\",\"cuda_version\":0,\"attempts\":[{\"rule\":\"System32\""));
  CHECK_FALSE(contains(out.text, on_path + " ->"));
}

// The plain libraries under their Windows names (docs/windows.md, "Windows"; support/plain_libraries.hpp,
// generated from their records): each found through its override as the recording DLL of its name,
// whose version function answers with the headers' version, and an override to an empty folder
// naming the DLL it looked for. NVML is looked for in System32 only, with no override, like
// nvcuda.dll.
#if defined(CUSHIM_NVML)
TEST_CASE("each plain library under its Windows name; NVML from System32 only") {
  const std::vector<test_support::plain_library> plain = test_support::plain_libraries();
  temp_dir tree;
  std::string empty = tree.make_dirs("empty");
  std::map<std::string, std::string> found, refused;
  for (const test_support::plain_library& l : plain) {
    CAPTURE(l.key);
    // The build's DLL (picked by the CUDA major) is the one of the headers' own major.
    CHECK(l.file == l.file_of_major(l.major));
    found[l.override_variable] = win_test::fixture(std::string(l.key) + "_recording", l.file);
    refused[l.override_variable] = empty;
  }
  probe_output out = run_all(found);
  INFO(out.text);
  for (const test_support::plain_library& l : plain) {
    std::string key = l.key;
    CAPTURE(key);
    CHECK(out.get(key + ".code") == "ok");
    CHECK(out.get(key + ".path") == found[l.override_variable]);
    CHECK(out.get(key + ".version") == std::to_string(l.headers_version));
  }
  // NVML: System32's nvml.dll only; there is none in this prefix.
  CHECK(out.get("nvml.code") == "not_found");
  std::vector<std::string> nvml = out.all("nvml.attempt");
  REQUIRE(nvml.size() == 1);
  CHECK(contains(nvml[0], "\\system32\\nvml.dll|absent|"));
  CHECK(contains(out.text, "install the NVIDIA driver for your GPU (it provides nvml.dll in System32)"));

  out = run_all(refused);
  for (const test_support::plain_library& l : plain) {
    std::string key = l.key, file = empty + "\\" + l.file;
    CHECK(out.get(key + ".code") == "override_failed");
    CHECK(out.all(key + ".attempt") ==
          std::vector<std::string>{std::string(l.override_variable) + "|" + file + "|absent|"});
    CHECK(contains(out.text, "  ERROR: " + std::string(l.title) + " was not loaded from the explicit location " +
                                 l.override_variable +
                                 " names; cushim does not fall back to a search when one is given\n    file: " + file +
                                 "\n"));
  }
}
#endif
