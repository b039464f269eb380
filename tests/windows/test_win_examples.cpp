// cushim-doctor and the GPU examples on Windows: what they print and how they exit with the
// fixture cuDNN 9 and CUDA runtime (and, for what the build opts the doctor into, the recording
// cuBLAS, cuBLASLt and NVRTC), with a broken sub-library, and with cuDNN or NVRTC missing.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/win_probe.hpp"

using win_test::probe_output;
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

}  // namespace

TEST_CASE("the doctor with cuDNN and the CUDA runtime but no driver: exit 2, sub-libraries and import tables") {
  probe_output r = run_program(CUSHIM_DOCTOR, fixtures_env());
  INFO(r.text);
  CHECK(r.exit_code == 2);
  std::string dir = fixture_dir("cudnn_good");
  CHECK(contains(r.text, "cuDNN: OK, 9.19.0 (compiled with 9.19.0) from " + dir + "\\" + cudnn + "\n"));
  CHECK(contains(r.text, "    cudnn_graph64_9.dll: OK (required), 9.19.0, " + dir + "\\cudnn_graph64_9.dll"));
  CHECK(contains(r.text, "Dependencies of the libraries in use (import tables), resolved as the system loader would:\n"
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
  CHECK(contains(r.text, "verdict: USABLE WITH WARNINGS (exit 2)"));
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
  CHECK(r.exit_code == 2);
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
  CHECK(r.exit_code == 2);
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
