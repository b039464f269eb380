// cushim-doctor and the examples (examples/), run as programs in a clean environment: what they
// print, write and return on this machine (the real cuDNN and CUDA runtime; no NVIDIA driver unless
// the machine has one), with cuDNN hidden or incomplete, and that none links a CUDA library.
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <doctest/doctest.h>
#include <sys/utsname.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "support/command_output.hpp"
#include "support/doctor_reports.hpp"
#include "support/fake_machine.hpp"
#include "support/opt_in_headers.hpp"  // the doctor's opt-ins (tests/CMakeLists.txt): their versions
#include "support/process.hpp"
#include "support/temp_tree.hpp"

using namespace test_support;

namespace {

const std::string doctor = CUSHIM_DOCTOR;
const std::string conv_forward = CUSHIM_CONV_FORWARD;
const std::string lstm_forward = CUSHIM_LSTM_FORWARD;

// The cuDNN examples, each with what it names when it cannot compute ("no usable GPU or cuDNN").
struct cudnn_example {
  std::string path;
  std::string needs;
};
const std::vector<cudnn_example> cudnn_examples = {
    {conv_forward, "GPU or cuDNN"},
    {lstm_forward, "GPU or cuDNN"},
#ifdef CUSHIM_MLP_FORWARD
    {CUSHIM_MLP_FORWARD, "GPU, cuDNN or cuBLAS"},
#endif
};
const std::string cudnn_file = CUSHIM_CUDNN_FILE;

const std::string cudnn_version =
    std::to_string(CUDNN_MAJOR) + "." + std::to_string(CUDNN_MINOR) + "." + std::to_string(CUDNN_PATCHLEVEL);
const std::string cuda_version =
    std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);

// The libraries the doctor's build shims, with their versions, as its verdict lists them.
#if defined(CUSHIM_CUBLAS) && defined(CUSHIM_NVRTC)
const std::string cublas_version =
    std::to_string(CUBLAS_VER_MAJOR) + "." + std::to_string(CUBLAS_VER_MINOR) + "." + std::to_string(CUBLAS_VER_PATCH);
const std::string shimmed_versions = "the CUDA runtime " + cuda_version + ", cuDNN " + cudnn_version + ", cuBLAS " +
                                     cublas_version + ", cuBLASLt " + cublas_version + " and NVRTC " + cuda_version;
const int opt_in_files = 4;  // cuBLAS, cuBLASLt, NVRTC and its builtins
#else
const std::string shimmed_versions = "the CUDA runtime " + cuda_version + " and cuDNN " + cudnn_version;
const int opt_in_files = 0;
#endif

// Where the system loader would find libcuda.so.1 in a clean environment: ld.so.cache or a system folder.
bool machine_has_driver() {
  if (!ldconfig_path_of("libcuda.so.1").empty()) return true;
  for (const char* dir : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"}) {
    if (std::filesystem::exists(std::string(dir) + "/libcuda.so.1")) return true;
  }
  return false;
}

const bool has_driver = machine_has_driver();

process_result run(const std::string& program, std::vector<std::string> args = {},
                   environment env = clean_environment()) {
  process_spec spec;
  spec.program = program;
  spec.args = std::move(args);
  spec.env = std::move(env);
  spec.timeout = std::chrono::seconds(60);
  process_result r = run_process(spec);
  REQUIRE(r.spawn_error == "");
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.term_signal == 0);
  return r;
}

// The environment with cuDNN's authoritative override pointing at `path`.
environment with_cudnn_at(const std::string& path) {
  environment env = clean_environment();
  env["CUSHIM_CUDNN_PATH"] = path;
  return env;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The first line of `text` that starts with `prefix`; empty when none does.
std::string line_starting(const std::string& text, const std::string& prefix) {
  std::size_t newline = text.find("\n" + prefix);
  if (newline == std::string::npos) return {};
  std::size_t start = newline + 1;
  return text.substr(start, text.find('\n', start) - start);
}

// The members the doctor adds beside "cushim", by object (docs/doctor.md, "cushim-doctor": `--json`).
const std::vector<std::pair<std::string, std::vector<std::string>>> doctor_fields = {
    {"driver", {"version", "kernel_module_version", "why", "fix"}},
    {"dependencies[0]", {"file_name", "path", "error", "needs.length"}},
    {"gpu_query", {"ran", "call", "error", "error_value", "message", "why", "fix"}},
    {"gpus", {"length"}},
    {"cudnn_create", {"ran", "ok", "status", "status_value", "cudnn_message", "why", "fix"}},
    {"gpu", {"usable", "why_not", "fix", "listed_by", "gpus.length"}},
    {"stacks[0]", {"kind", "name", "where", "uses_gpu", "cudnn", "named_by_python_option", "problems.length"}},
    {"inventory[0]",
     {"library", "key", "major", "path", "file", "version", "version_source", "cuda_major", "installed_by", "owner",
      "package", "sublibraries.length", "used_by.length"}},
    {"programs[0]", {"library", "headers", "headers_version", "this_program", "loads", "found_by", "refused.length"}},
    {"verdict", {"exit_code", "name", "text"}}};

// Every example program of this build: the cuDNN ones and, opted in, nvrtc_saxpy.
std::vector<std::string> example_programs() {
  std::vector<std::string> programs;
  for (const cudnn_example& e : cudnn_examples) programs.push_back(e.path);
#ifdef CUSHIM_NVRTC_SAXPY
  programs.push_back(CUSHIM_NVRTC_SAXPY);
#endif
#ifdef CUSHIM_TOOLKIT_MATH
  programs.push_back(CUSHIM_TOOLKIT_MATH);
#endif
  return programs;
}

}  // namespace

TEST_CASE("no program links cuDNN, the CUDA runtime, cuBLAS, NVRTC or the driver") {
  std::vector<std::string> programs = example_programs();
  programs.push_back(doctor);
  for (const std::string& program : programs) CHECK(cuda_libraries_needed(program) == "");
}

TEST_CASE("the doctor reports this machine's cuDNN and CUDA runtime, the driver, the GPUs and cudnnCreate") {
  REQUIRE_FALSE(ldconfig_path_of(cudnn_file).empty());  // the real cuDNN is installed where the system finds it
  process_result r = run(doctor);
  INFO(r.out << r.err);
  CHECK(contains(r.out, "CUDA runtime: OK, " + cuda_version + " "));
  CHECK(contains(r.out, "cuDNN: OK, " + cudnn_version + " "));
  CHECK(contains(r.out, "from " + ldconfig_path_of(cudnn_file)));
  CHECK(contains(r.out, "cuDNN " + cudnn_version + " was built for CUDA "));
  CHECK(contains(r.out, "  " + cudnn_file + " needs "));
  CHECK(contains(r.out, "\nGPUs: "));
  CHECK(contains(r.out, "\ncudnnCreate: "));
  if (has_driver) {
    CHECK(contains(r.out, "NVIDIA driver version: "));
    CHECK((r.exit_code == 0 || r.exit_code == 2));
    return;
  }
  CHECK(contains(r.out, "no NVIDIA driver was found"));
  CHECK(contains(r.out, "GPUs: none\n  cudaGetDeviceCount: cudaErrorInsufficientDriver (35)"));
  CHECK(contains(
      r.out, "cudnnCreate: CUDNN_STATUS_NOT_INITIALIZED (" + std::to_string(int(CUDNN_STATUS_NOT_INITIALIZED)) + ")"));
  CHECK(r.out.rfind("No stack can use a GPU: no NVIDIA driver was found\n", 0) == 0);
  CHECK(contains(r.out, "\nverdict: NO GPU (exit 1): no NVIDIA driver was found; fix: install the NVIDIA driver"));
  CHECK(r.exit_code == 1);
}

TEST_CASE("with cuDNN hidden behind an empty override the doctor says so: its programs find none there") {
  temp_tree empty;
  process_result r = run(doctor, {}, with_cudnn_at(empty.root()));
  INFO(r.out << r.err);
  CHECK(contains(r.out, "cuDNN: UNAVAILABLE (override_failed)"));
  CHECK(contains(r.out, "cudnnCreate: not tried: cuDNN is unavailable"));
  CHECK(contains(r.out, "\n  programs built with cushim and cuDNN " + cudnn_version +
                            "'s headers find no cuDNN where CUSHIM_CUDNN_PATH points (" + empty.root() +
                            ")\n    fix: set CUSHIM_CUDNN_PATH="));
  if (!has_driver) CHECK(r.exit_code == 1);
}

#if CUDNN_MAJOR >= 9
TEST_CASE("a sub-library's missing dependency is named, with where it was looked for") {
  temp_tree tree;
  const std::string fixtures = CUSHIM_FIXTURE_DIR;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures + "/cudnn_tree")) {
    tree.copy_file(entry.path().string(), entry.path().filename().string());
  }
  const std::string cnn = "libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR);
  tree.copy_file(fixtures + "/cnn_needs_dependency/" + cnn, cnn);
  process_result r = run(doctor, {}, with_cudnn_at(tree.root()));
  INFO(r.out << r.err);
  CHECK(contains(line_starting(r.out, "  " + cnn + " needs "), " libfakedependency.so"));
  CHECK(contains(r.out, "    MISSING libfakedependency.so, looked in: "));
  CHECK(contains(r.out, "\n  programs built with cushim and cuDNN " + cudnn_version + "'s headers: " + cnn +
                            " needs libfakedependency.so, which is not found\n"));
  if (!has_driver) CHECK(r.exit_code == 1);
}
#endif

#if CUDNN_MAJOR >= 9
TEST_CASE("a sub-library the loader would refuse is not called OK: the doctor loads it, in a child, as a call would") {
  temp_tree tree;
  const std::string fixtures = CUSHIM_FIXTURE_DIR;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures + "/cudnn_tree")) {
    tree.copy_file(entry.path().string(), entry.path().filename().string());
  }
  const std::string cnn = "libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR);
  tree.copy_file(fixtures + "/cnn_undefined_symbol/" + cnn, cnn);  // an undefined symbol: RTLD_NOW refuses it
  process_result r = run(doctor, {}, with_cudnn_at(tree.root()));
  INFO(r.out << r.err);
  CHECK(contains(r.out, "    " + cnn + ": UNUSABLE, " + tree.path(cnn) + "\n      why: the system loader refused " +
                            tree.path(cnn) + ": "));
  CHECK(contains(r.out, "undefined symbol: cushim_fixture_defined_nowhere"));
  CHECK(contains(r.out, "  WARNING: cuDNN's sub-library " + cnn + " is unusable"));
}
#endif

TEST_CASE("--search-dir folders are searched first") {
  temp_tree first;
  process_result r = run(doctor, {"--search-dir", first.root()});
  INFO(r.out);
  CHECK(contains(r.out, "1. options.search_dirs[0]: " + first.root() + "/" + cudnn_file + " -> absent"));
}

TEST_CASE("--json: cushim's explain_json() under \"cushim\", the doctor's checks beside it") {
  process_result r = run(doctor, {"--json"});
  INFO(r.out << r.err);
  key_values json = parsed_json(r.out);
  CHECK(json.get("doctor_schema") == "2");
  CHECK(json.get("cushim.schema") == "1");
  CHECK(json.get("cushim.libraries[0].library") == as_json("cudart"));
  CHECK(json.get("cushim.libraries[1].library") == as_json("cudnn"));
  CHECK(json.get("cushim.libraries[1].available") == "true");
  CHECK(json.get("cushim.libraries[1].version") == std::to_string(CUDNN_VERSION));
  CHECK(json.get("cushim.libraries[1].path") == as_json(ldconfig_path_of(cudnn_file)));
  for (const auto& [object, members] : doctor_fields) {
    for (const std::string& member : members) {
      std::string key = object + "." + member;
      CHECK_MESSAGE(json.has(key), key);
    }
  }
  CHECK(json.get("dependencies[0].file_name") == as_json(CUSHIM_CUDART_FILE));  // every library in use, in order
  CHECK(json.get("dependencies[1].file_name") == as_json(cudnn_file));
  CHECK(json.get("verdict.exit_code") == std::to_string(r.exit_code));
  if (has_driver) return;
  CHECK(json.get("cushim.driver.found") == "false");
  CHECK(json.get("gpu_query.call") == as_json("cudaGetDeviceCount"));
  CHECK(json.get("gpu_query.error") == as_json("cudaErrorInsufficientDriver"));
  CHECK(json.get("gpus.length") == "0");
  CHECK(json.get("cudnn_create.ok") == "false");
  CHECK(json.get("cudnn_create.status") == as_json("CUDNN_STATUS_NOT_INITIALIZED"));
  CHECK(json.get("gpu.usable") == "false");
  CHECK(json.get("gpu.why_not") == as_json("no NVIDIA driver was found"));
  CHECK(json.get("verdict.name") == as_json("no_gpu"));
  CHECK(r.exit_code == 1);
}

TEST_CASE("--json with cuDNN hidden: unavailable, with the exit code in the verdict") {
  temp_tree empty;
  process_result r = run(doctor, {"--json"}, with_cudnn_at(empty.root()));
  key_values json = parsed_json(r.out);
  CHECK(json.get("cushim.libraries[1].available") == "false");
  CHECK(json.get("cushim.libraries[1].code") == as_json("override_failed"));
  CHECK(json.get("dependencies.length") == std::to_string(1 + opt_in_files));  // the runtime's and the opt-ins
  CHECK(json.get("dependencies[0].file_name") == as_json(CUSHIM_CUDART_FILE));
  CHECK(json.get("cudnn_create.ran") == "false");
  CHECK(json.get("verdict.exit_code") == std::to_string(r.exit_code));
  if (has_driver) return;
  CHECK(json.get("verdict.name") == as_json("no_gpu"));
  CHECK(r.exit_code == 1);
}

#if defined(CUSHIM_CUBLAS) && defined(CUSHIM_NVRTC)
TEST_CASE(
    "the doctor checks cuBLAS, cuBLASLt and NVRTC too, each with its dependencies, in the report and the record") {
  temp_tree tree;
  std::string file = tree.path("record.txt");
  process_result r = run(doctor, {"--record", file});
  INFO(r.out << r.err);
  std::string cublas_file = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  std::string builtins = "libnvrtc-builtins.so." + cuda_version;
  CHECK(contains(r.out, "\ncuBLAS: OK, " + cublas_version + " (compiled with " + cublas_version + ") from " +
                            ldconfig_path_of(cublas_file) + "\n"));
  CHECK(contains(r.out, "\ncuBLASLt: OK, " + cublas_version + " (compiled with " + cublas_version + ") from "));
  CHECK(contains(r.out, "\nNVRTC: OK, " + cuda_version + " (compiled with " + cuda_version + ") from "));
  CHECK(contains(r.out, "    " + builtins + ": OK, " + cuda_version + ", " + ldconfig_path_of(builtins) + "\n"));
  CHECK(contains(line_starting(r.out, "  " + cublas_file + " needs "), " libcublasLt.so."));
  CHECK(contains(r.out, "\n  " + builtins + " needs "));
  key_values record = record_lines(file);
  CHECK(record.get("cublas") == cublas_version);
  CHECK(record.get("headers_cublasLt") == cublas_version);
  CHECK(record.get("nvrtc") == cuda_version);
  CHECK(record.get("nvrtc_sublibrary") == builtins + " " + cuda_version + " " + ldconfig_path_of(builtins));
}

TEST_CASE("with cuBLAS hidden behind an empty override the doctor names it among its own loads") {
  temp_tree empty;
  environment env = clean_environment();
  env["CUSHIM_CUBLAS_PATH"] = empty.root();
  process_result r = run(doctor, {}, env);
  INFO(r.out << r.err);
  CHECK(contains(r.out, "cuBLAS: UNAVAILABLE (override_failed)"));
  CHECK(r.out.find("cuBLAS: UNAVAILABLE") > r.out.find("\nThis doctor's own loads ("));
}
#endif

TEST_CASE("--record writes the environment record: date, OS, driver, libraries, headers, paths") {
  temp_tree tree;
  std::string file = tree.path("environment_versions.txt");
  process_result r = run(doctor, {"--record", file});
  INFO(r.out << r.err);
  CHECK(contains(r.out, "\nverdict: "));  // the report still goes to stdout
  key_values record = record_lines(file);
  INFO(command_output("cat '" + file + "'"));
  CHECK(std::regex_match(record.get("date"), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  utsname u{};
  REQUIRE(uname(&u) == 0);
  CHECK(record.get("os").rfind(std::string(u.sysname) + " " + u.release + " ", 0) == 0);
  CHECK(record.has("distribution"));
  CHECK(record.get("cudart") == cuda_version);
  CHECK(record.get("cudnn") == cudnn_version);
  CHECK(record.get("headers_cudart") == cuda_version);
  CHECK(record.get("headers_cudnn") == cudnn_version);
  CHECK(record.get("cudnn_path") == ldconfig_path_of(cudnn_file));
  CHECK(record.has("cudart_path"));
  CHECK(record.has("cudnn_built_for_cuda"));
  CHECK(record.has("cushim"));
  CHECK(record.get("verdict").find("(exit " + std::to_string(r.exit_code) + ")") != std::string::npos);
  if (has_driver) return;
  CHECK(record.get("nvidia_driver") == "not found");
  CHECK(record.get("nvidia_driver_path") == "");
  CHECK(record.get("gpus") == "0");
  CHECK(record.get("cudnn_create") == "CUDNN_STATUS_NOT_INITIALIZED");
  CHECK(record.get("gpu_usable") == "no: no NVIDIA driver was found");
  CHECK(record.get("verdict") == "no_gpu (exit 1)");
}

TEST_CASE("--record to a folder that does not exist: exit 73 and why") {
  temp_tree tree;
  process_result r = run(doctor, {"--record", tree.path("missing/record.txt")});
  CHECK(r.exit_code == 73);
  CHECK(contains(r.err, "cannot write the record to " + tree.path("missing/record.txt")));
}

TEST_CASE("the doctor's command line: --help exits 0, anything it does not know exits 64") {
  process_result help = run(doctor, {"--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.rfind("usage: cushim-doctor", 0) == 0);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--bogus"}, {"--record"}, {"--search-dir"}, {"--json", "extra"}}) {
    CAPTURE(args.front());
    process_result r = run(doctor, args);
    CHECK(r.exit_code == 64);
    CHECK(contains(r.err, "usage: cushim-doctor"));
    CHECK(r.out.empty());
  }
}

TEST_CASE("--record with an empty file name is a bad command line: exit 64 and why") {
  process_result r = run(doctor, {"--record", ""});
  CHECK(r.exit_code == 64);
  CHECK(contains(r.err, "cushim-doctor: --record needs a file name, not an empty argument"));
  CHECK(r.out.empty());
}

TEST_CASE("without a usable GPU the examples exit 3 and explain why") {
  if (has_driver) {
    MESSAGE("this machine has an NVIDIA driver: the examples run for real (next test)");
    return;
  }
  for (const cudnn_example& e : cudnn_examples) {
    CAPTURE(e.path);
    process_result r = run(e.path);
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, ": no usable " + e.needs + ": cudaGetDeviceCount failed: cudaErrorInsufficientDriver"));
    CHECK(contains(r.err, "no NVIDIA driver was found"));
  }
}

TEST_CASE("on a machine with a GPU the examples match the CPU reference") {
  if (!has_driver) {
    MESSAGE("no NVIDIA driver on this machine: the examples cannot compute (previous test)");
    return;
  }
  for (const std::string& program : example_programs()) {
    CAPTURE(program);
    process_result r = run(program);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "max abs error"));
  }
}

TEST_CASE("with cuDNN hidden the examples exit 3 and name cuDNN") {
  temp_tree empty;
  for (const cudnn_example& e : cudnn_examples) {
    CAPTURE(e.path);
    process_result r = run(e.path, {}, with_cudnn_at(empty.root()));
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, ": no usable " + e.needs + ": cuDNN is unavailable (override_failed)"));
    CHECK(contains(r.err, "cuDNN: UNAVAILABLE (override_failed)"));  // cushim's explanation follows
  }
}

#ifdef CUSHIM_NVRTC_SAXPY
TEST_CASE("nvrtc_saxpy compiles its kernel with NVRTC on any machine; without a driver it stops there with exit 3") {
  process_result r = run(CUSHIM_NVRTC_SAXPY);
  INFO(r.out << r.err);
  CHECK(contains(r.out, "nvrtc_saxpy: NVRTC " + cuda_version + " compiled saxpy to "));
  CHECK(contains(r.out, " bytes of PTX\n"));
  if (has_driver) return;  // it runs the kernel: the test above
  CHECK(r.exit_code == 3);
  CHECK(
      contains(r.err, "nvrtc_saxpy: no usable GPU, NVRTC or driver: the CUDA driver API is unavailable (not_found)\n"));
  CHECK(contains(r.err, "\nCUDA driver API: UNAVAILABLE (not_found)"));
}

// Issue 31 item 5, with this machine's real NVRTC: in a folder of its own it compiles with the
// builtins beside it, which cushim preloads (as torch's and CuPy's processes map them), and without
// them with the copy its own load by name finds; explain() names the copy the process maps.
TEST_CASE("NVRTC in a folder of its own compiles with the builtins beside it; explain() names what the process maps") {
  std::string builtins = "libnvrtc-builtins.so." + cuda_version;
  std::string toolkit_builtins = ldconfig_path_of(builtins);
  REQUIRE_FALSE(toolkit_builtins.empty());
  temp_tree tree;
  tree.copy_file(ldconfig_path_of(CUSHIM_NVRTC_FILE), std::string("nvrtc/") + CUSHIM_NVRTC_FILE);
  std::string beside = tree.copy_file(toolkit_builtins, "nvrtc/" + builtins);
  environment env = clean_environment();
  env["CUSHIM_NVRTC_PATH"] = tree.path("nvrtc");
  env["LD_DEBUG"] = "libs";
  process_result r = run(CUSHIM_NVRTC_SAXPY, {}, env);
  INFO(r.out << r.err);
  CHECK(contains(r.out, "nvrtc_saxpy: NVRTC " + cuda_version + " compiled saxpy to "));
  CHECK(contains(r.err, "calling init: " + beside + "\n"));
  CHECK_FALSE(contains(r.err, "calling init: " + toolkit_builtins + "\n"));
  if (!has_driver) {
    CHECK(contains(r.err, "    " + builtins + ": OK, " + cuda_version + ", " + beside +
                              " (preloaded by cushim: NVRTC's own search would not find this copy)\n"));
  }
  std::filesystem::remove(beside);  // without them: the toolkit's, as NVRTC's own load by name finds them
  r = run(CUSHIM_NVRTC_SAXPY, {}, env);
  CHECK(contains(r.out, "nvrtc_saxpy: NVRTC " + cuda_version + " compiled saxpy to "));
  CHECK(contains(r.err, "calling init: " + toolkit_builtins + "\n"));
  if (!has_driver) CHECK(contains(r.err, "    " + builtins + ": OK, " + cuda_version + ", " + toolkit_builtins + "\n"));
}

TEST_CASE("with NVRTC hidden nvrtc_saxpy exits 3 and names NVRTC") {
  temp_tree empty;
  environment env = clean_environment();
  env["CUSHIM_NVRTC_PATH"] = empty.root();
  process_result r = run(CUSHIM_NVRTC_SAXPY, {}, env);
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "nvrtc_saxpy: no usable GPU, NVRTC or driver: NVRTC is unavailable (override_failed)\n"));
  CHECK(contains(r.err, "NVRTC: UNAVAILABLE (override_failed)"));
}
#endif

#ifdef CUSHIM_TOOLKIT_MATH
TEST_CASE("toolkit_math needs a GPU: without a driver it exits 3 after the libraries loaded, and names the reason") {
  process_result r = run(CUSHIM_TOOLKIT_MATH);
  INFO(r.out << r.err);
  if (has_driver) return;  // it computes: the test above
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err,
                 "toolkit_math: no usable GPU, cuFFT, cuRAND or cuSOLVER: cudaGetDeviceCount failed: "
                 "cudaErrorInsufficientDriver"));
  for (const char* section : {"\ncuFFT: OK, ", "\ncuRAND: OK, ", "\ncuSOLVER: OK, "}) CHECK(contains(r.err, section));
}

TEST_CASE("with cuFFT hidden toolkit_math exits 3 and names cuFFT") {
  temp_tree empty;
  environment env = clean_environment();
  env["CUSHIM_CUFFT_PATH"] = empty.root();
  process_result r = run(CUSHIM_TOOLKIT_MATH, {}, env);
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err,
                 "toolkit_math: no usable GPU, cuFFT, cuRAND or cuSOLVER: cufft is unavailable (override_failed)\n"));
  CHECK(contains(r.err, "cuFFT: UNAVAILABLE (override_failed)"));
}
#endif

TEST_CASE("the doctor's driver section shows what nvidia-smi shows, from NVML, without the CUDA runtime") {
  // Found where the driver installs it: LD_LIBRARY_PATH holds a stand-in of two GPUs. The runtime
  // is hidden: NVML answers without it.
  temp_tree empty;
  environment env = with_cudnn_at(empty.root());
  env["CUSHIM_CUDART_PATH"] = empty.root();
  std::string good = std::string(CUSHIM_FIXTURE_DIR) + "/nvml_good";
  env["LD_LIBRARY_PATH"] = good;
  process_result r = run(doctor, {"--no-discover"}, env);
  INFO(r.out << r.err);
  CHECK(contains(r.out, "\nNVML " + good +
                            "/libnvidia-ml.so.1: driver 575.51.03, supports CUDA up to 12.9\n"
                            "  GPU 0: NVIDIA H100 80GB HBM3, compute capability 9.0, 79.6 GiB\n"
                            "  GPU 1: NVIDIA A100-SXM4-40GB, compute capability 8.0, 40.0 GiB\n"));
  process_result json = run(doctor, {"--json", "--no-discover"}, env);
  CHECK(
      contains(json.out, "\"nvml\":{\"found\":true,\"path\":\"" + good +
                             "/libnvidia-ml.so.1\",\"error\":\"\",\"driver_version\":\"575.51.03\",\"cuda_version\":"
                             "12090,\"gpus\":[{\"name\":\"NVIDIA H100 80GB HBM3\",\"compute_capability\":\"9.0\","
                             "\"memory_bytes\":85520809984},{\"name\":\"NVIDIA A100-SXM4-40GB\",\"compute_capability\":"
                             "\"8.0\",\"memory_bytes\":42949672960}]}"));
  // A driver whose kernel module is not loaded: NVML says so through nvmlInit_v2.
  std::string no_module = std::string(CUSHIM_FIXTURE_DIR) + "/nvml_no_module";
  env["LD_LIBRARY_PATH"] = no_module;
  r = run(doctor, {"--no-discover"}, env);
  CHECK(contains(r.out, "\nNVML " + no_module + "/libnvidia-ml.so.1: nvmlInit_v2 returned 9\n"));
  // None where the driver installs it (this machine has no driver): said in one line.
  if (!has_driver) {
    r = run(doctor, {"--no-discover"});
    CHECK(contains(r.out, "\nNVML: not found (it comes with the NVIDIA driver)\n"));
  }
}

TEST_CASE("the examples' command line: --help exits 0, anything else 64") {
  for (const std::string& program : example_programs()) {
    CAPTURE(program);
    process_result help = run(program, {"--help"});
    CHECK(help.exit_code == 0);
    CHECK(contains(help.out, "usage: "));
    process_result bad = run(program, {"--bogus"});
    CHECK(bad.exit_code == 64);
    CHECK(contains(bad.err, "usage: "));
  }
}

TEST_CASE("a candidate that crashes, hangs or exits does not take the doctor down: it is named, and --json is whole") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"crashing_segv", "crashed with SIGSEGV in cudnnGetVersion"},
      {"crashing_loop", "did not finish in 4000 ms in cudnnGetVersion"},
      {"crashing_constructor_exit", "ended the process (exit status 3) while loading"}};
  for (const auto& [folder, how] : cases) {
    CAPTURE(folder);
    environment env = clean_environment();
    env["CUSHIM_SEARCH_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/" + folder;
    env["CUSHIM_PROBE_TIMEOUT_MS"] =
        "4000";  // also the limit for the real copies after it, loaded in a child on a busy machine
    process_result r = run(doctor, {"--json"}, env);
    INFO(r.out << r.err);
    key_values json = parsed_json(r.out);
    CHECK(json.get("cushim.libraries[1].attempts[0].outcome") == as_json("crashed"));
    CHECK(json.get("cushim.libraries[1].attempts[0].detail") ==
          as_json(how + ", in a child process (probe_in_child); never loaded in this one"));
    CHECK(json.get("cushim.libraries[1].path") == as_json(ldconfig_path_of(cudnn_file)));  // the search went on
    CHECK(json.get("verdict.exit_code") == std::to_string(r.exit_code));
    if (!has_driver) CHECK(r.exit_code == 1);
  }
}

// What a probe program does with a request (Windows' probe_program; the same code as the fork
// child's): the steps on stdout, and the crash's own signal.
TEST_CASE("a FIFO named libcuda.so.1 where the loader looks: the doctor names it, makes no call that loads it, ends") {
  temp_tree tree;
  std::string fifo = tree.make_fifo("llp/libcuda.so.1");
  environment env = clean_environment();
  env["LD_LIBRARY_PATH"] = tree.path("llp");
  // NVIDIA's libraries that load the driver as they start (cuBLAS, cuBLASLt, cuDNN's precompiled
  // engines) wait on it in their probe children, each until this limit.
  env["CUSHIM_PROBE_TIMEOUT_MS"] = "3000";
  process_result r = run(doctor, {"--json"}, env);  // cudaGetDeviceCount would wait on the FIFO forever
  INFO(r.out << r.err);
  key_values fields = parsed_json(r.out);
  CHECK(contains(r.out,
                 "\"what\":\"the system loader's search for libcuda.so.1 meets a FIFO before any driver: "
                 "loading the driver by name would wait forever\",\"path\":\"" +
                     fifo + "\""));
  CHECK(fields.get("gpu_query.ran") == "false");
  CHECK(fields.get("gpu_query.why") ==
        "\"not run: the driver's load by name would wait forever on the FIFO " + fifo + "\"");
  CHECK(fields.get("cudnn_create.ran") == "false");
  CHECK_FALSE(contains(r.out, "remove or replace this file"));  // the FIFO is named, never a good copy
#ifdef CUSHIM_CUBLAS
  // cuBLAS cannot be loaded here: its load would never return.
  CHECK(contains(r.out, "waits forever on a FIFO where the system loader looks\",\"path\":\"" + fifo + "\""));
  CHECK(fields.get("verdict.exit_code") == "1");
#else
  CHECK(fields.get("verdict.exit_code") == "2");
#endif
}

#if CUDNN_MAJOR >= 9
TEST_CASE("a FIFO where cuDNN loads its root sub-library: the doctor names it, never the good copy, and ends") {
  temp_tree tree;
  const std::string name = "libcudnn_graph.so." + std::to_string(CUDNN_MAJOR) + "." + std::to_string(CUDNN_MINOR) +
                           "." + std::to_string(CUDNN_PATCHLEVEL);
  std::string fifo = tree.make_fifo("llp/" + name);
  environment env = clean_environment();
  env["LD_LIBRARY_PATH"] = tree.path("llp");
  process_result r = run(doctor, {"--json"}, env);  // the doctor probes in children: one would wait in cudnnGetVersion
  key_values fields = parsed_json(r.out);
  CHECK(fields.get("verdict.exit_code") == "1");
  CHECK(contains(r.out, "cuDNN's own load of its root sub-library libcudnn_graph.so." + std::to_string(CUDNN_MAJOR) +
                            " would wait forever on a FIFO"));
  CHECK(contains(r.out, "\"fix\":\"remove " + fifo + ", or take its folder out of LD_LIBRARY_PATH\""));
  CHECK_FALSE(contains(r.out, "did not finish"));
  CHECK_FALSE(contains(r.out, "remove or replace this file"));
}
#endif

TEST_CASE("the doctor serves a probe request: its steps on stdout, then it ends as the candidate makes it") {
  const std::string crashing = std::string(CUSHIM_FIXTURE_DIR) + "/crashing_segv/" + cudnn_file;
  process_spec spec;  // not run(), which requires a normal exit
  spec.program = doctor;
  spec.args = {"--cushim-probe-child", "cudnn", crashing};
  spec.env = clean_environment();
  process_result crashed = run_process(spec);
  CHECK(crashed.out == "step while loading\nstep while cushim checked it\nstep in cudnnGetVersion\n");
  CHECK(crashed.term_signal == SIGSEGV);
  const std::string exiting = std::string(CUSHIM_FIXTURE_DIR) + "/crashing_constructor_exit/" + cudnn_file;
  process_result exited = run(doctor, {"--cushim-probe-child", "cudnn", exiting}, clean_environment());
  CHECK(exited.out == "step while loading\n");
  CHECK(exited.exit_code == 3);
  process_result good =
      run(doctor, {"--cushim-probe-child", "cudnn", ldconfig_path_of(cudnn_file)}, clean_environment());
  CHECK(good.out == "step while loading\nstep while cushim checked it\nstep in cudnnGetVersion\nstep done\n");
  CHECK(good.exit_code == 0);
  CHECK(good.err == "");
}

#ifdef CUSHIM_KERNEL_SAXPY
// kernel_saxpy has its own kernel (nvcc, cushim_use_for_cuda): its registration before main and
// its launch go through cushim.
TEST_CASE("kernel_saxpy links no CUDA library, reaches main and explains a missing GPU or runtime") {
  const std::string program = CUSHIM_KERNEL_SAXPY;
  CHECK(cuda_libraries_needed(program) == "");
  process_result r = run(program);
  if (has_driver) {
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "kernel_saxpy: max abs error"));
  } else {
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err,
                   "kernel_saxpy: no usable GPU or cuDNN: cudaGetDeviceCount failed: cudaErrorInsufficientDriver"));
  }
  temp_tree empty;
  environment env = clean_environment();
  env["CUSHIM_CUDART_PATH"] = empty.root();
  process_result hidden = run(program, {}, env);
  CHECK(hidden.exit_code == 3);
  CHECK(
      contains(hidden.err, "kernel_saxpy: no usable GPU or cuDNN: the CUDA runtime is unavailable (override_failed)"));
  CHECK(contains(hidden.err, "CUDA runtime: UNAVAILABLE (override_failed)"));
}
#endif

// --- Discovery: the doctor on a machine laid out under a temp folder (support/fake_machine.hpp) ---

namespace {

// A machine with a problem in each section: a toolkit with a cuDNN built for CUDA 11 copied into a
// CUDA 12 toolkit, a working torch 2.5.1+cu124 venv (the active one), and a CPU-only torch in the
// system's dist-packages.
void lay_out_discovery_machine(test_support::fake_machine& m) {
  std::string cuda12 = m.toolkit("12.4.1");
  m.toolkit_cudnn8(cuda12, "8.5.0");
  std::string site = m.venv("home/user/proj/.venv", "3.11.7");
  m.torch_cu124(site);
  m.env["VIRTUAL_ENV"] = m.path("home/user/proj/.venv");  // activated
  m.env["PATH"] = m.path("home/user/proj/.venv/bin") + ":" + m.path("usr/bin");
  m.torch(m.system_python("3.11.2"), "2.4.1+cpu", "None", "None", "");
}

environment doctor_environment(const test_support::fake_machine& m) {
  environment env = clean_environment();
  for (const auto& [name, value] : m.env) env[name] = value;
  return env;
}

// The WARNING blocks of the doctor's toolkit and Python environment sections as "what|file|why|fix", in order.
std::vector<std::string> discovery_blocks(const std::string& text) {
  std::vector<std::string> blocks;
  std::size_t start = text.find("\nCUDA toolkits (from their files; nothing was run)\n");
  if (start == std::string::npos) return blocks;
  std::istringstream lines(text.substr(start, text.find("\nPrograms built with cushim, ", start) - start));
  std::string line, current;
  auto field = [](const std::string& l, const std::string& key) {
    std::size_t at = l.find(key);
    return at == std::string::npos ? std::string() : l.substr(at + key.size());
  };
  std::string what, file, why, fix;
  auto flush = [&] {
    if (!what.empty()) blocks.push_back(what + "|" + file + "|" + why + "|" + fix);
    what = file = why = fix = "";
  };
  while (std::getline(lines, line)) {
    if (line.find("WARNING: ") != std::string::npos) {
      flush();
      what = field(line, "WARNING: ");
    } else if (!what.empty() && line.find("  file: ") != std::string::npos) {
      file = field(line, "  file: ");
    } else if (!what.empty() && line.find("  why:  ") != std::string::npos) {
      why = field(line, "  why:  ");
    } else if (!what.empty() && line.find("  fix:  ") != std::string::npos) {
      fix = field(line, "  fix:  ");
    }
  }
  flush();
  return blocks;
}

// The problems of the JSON's "discovery" as "what|path|why|fix" (JSON strings decoded by Python).
std::vector<std::string> discovery_json_problems(const key_values& json) {
  std::vector<std::string> problems;
  auto unquoted = [](const std::string& v) {
    std::string out;
    for (std::size_t i = 1; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size()) {
        ++i;
        out += v[i] == 'n' ? '\n' : v[i];
      } else {
        out += v[i];
      }
    }
    return out;
  };
  for (const auto& [key, value] : json.items) {
    const std::string suffix = ".what";
    if (key.rfind("discovery.", 0) != 0 || key.size() < suffix.size() ||
        key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0 ||
        key.find(".problems[") == std::string::npos) {
      continue;
    }
    std::string base = key.substr(0, key.size() - suffix.size());
    problems.push_back(unquoted(value) + "|" + unquoted(json.get(base + ".path")) + "|" +
                       unquoted(json.get(base + ".why")) + "|" + unquoted(json.get(base + ".fix")));
  }
  return problems;
}

}  // namespace

TEST_CASE("discovery: the toolkits and Python environments before the doctor's own loads, each problem a warning") {
  test_support::fake_machine m;
  lay_out_discovery_machine(m);
  process_result r = run(doctor, {}, doctor_environment(m));
  INFO(r.out << r.err);
  std::size_t own = r.out.find("\ncushim-doctor's own checks\n");
  std::size_t toolkits = r.out.find("\nCUDA toolkits (from their files; nothing was run)\n");
  std::size_t pythons = r.out.find("\nPython environments (from their files; nothing was run)\n");
  std::size_t verdict = r.out.find("\nverdict: ");
  REQUIRE(own != std::string::npos);
  REQUIRE(toolkits != std::string::npos);
  CHECK(toolkits < pythons);
  CHECK(pythons < own);
  CHECK(own < verdict);
  std::string venv = m.path("home/user/proj/.venv");
  CHECK(contains(r.out, "\n  venv " + venv +
                            ": Python 3.11.7 (pyvenv.cfg); found by VIRTUAL_ENV, python on PATH, python3 on PATH; "
                            "python and python3 on PATH start it\n    torch 2.5.1+cu124 "
                            "(CUDA 12.4): loads cuDNN 9.1.0.70 from "));
  CHECK(contains(r.out, "\n    torch 2.4.1+cpu (CPU only)\n      WARNING: torch 2.4.1+cpu is a CPU-only build\n"));
  CHECK(contains(r.out, "\n    WARNING: the cuDNN 8.5.0 in " + m.path("usr/local/cuda-12.4") +
                            " (CUDA 12.4.1) was built for CUDA 11\n"));
  CHECK(contains(r.out, "\nverdict: NO GPU (exit 1): no NVIDIA driver was found"));
  CHECK(r.exit_code == 1);
  // The same findings as JSON: every problem of the text is one of "discovery", and no other.
  process_result j = run(doctor, {"--json"}, doctor_environment(m));
  key_values json = parsed_json(j.out);
  std::vector<std::string> text_problems = discovery_blocks(r.out), json_problems = discovery_json_problems(json);
  CHECK(text_problems.size() == 2);
  std::sort(text_problems.begin(), text_problems.end());
  std::sort(json_problems.begin(), json_problems.end());
  CHECK(text_problems == json_problems);
  CHECK(json.get("discovery.toolkits[0].path") == as_json(m.path("usr/local/cuda-12.4")));
  CHECK(json.get("discovery.toolkits[0].cudnn[0].built_for_cuda_major") == "11");
  CHECK(json.get("discovery.environments[0].frameworks[0].loads[0].version") == as_json("9.1.0.70"));
  CHECK(json.get("discovery.environments[1].frameworks[0].build") == as_json("cpu"));
  CHECK(json.get("verdict.exit_code") == "1");
  CHECK(j.exit_code == 1);
}

TEST_CASE("discovery: --record keeps each environment's frameworks and the CUDA and cuDNN each would load") {
  test_support::fake_machine m;
  lay_out_discovery_machine(m);
  std::string file = m.path("environment_versions.txt");
  process_result r = run(doctor, {"--record", file}, doctor_environment(m));
  INFO(r.out << r.err);
  key_values record = record_lines(file);
  std::string nvidia = m.path("home/user/proj/.venv/lib/python3.11/site-packages/nvidia");
  CHECK(record.get("toolkits") == "1");
  CHECK(record.get("toolkit0") ==
        m.path("usr/local/cuda-12.4") + " CUDA 12.4.1, cuDNN 8.5.0 (headers 8.5.0, built for CUDA 11)");
  CHECK(record.get("python_environments") == "2");
  CHECK(record.get("python_env0") == "venv " + m.path("home/user/proj/.venv") + " Python 3.11.7");
  CHECK(record.get("python_on_path") ==
        m.path("home/user/proj/.venv/bin/python") + " (" + m.path("home/user/proj/.venv") + ")");
  CHECK(record.get("python_env0_torch") ==
        "2.5.1+cu124, CUDA 12.4, loads cuDNN 9.1.0.70 from " + nvidia +
            "/cudnn/lib/libcudnn.so.9, loads CUDA runtime "
            "12.4.127 from " +
            nvidia + "/cuda_runtime/lib/libcudart.so.12, loads cuBLAS 12.4.5.8 from " + nvidia +
            "/cublas/lib/libcublas.so.12, loads cuBLASLt 12.4.5.8 from " + nvidia + "/cublas/lib/libcublasLt.so.12");
  CHECK(record.get("python_env1") == "system " + m.path("usr") + " Python 3.11.2");
  CHECK(record.get("python_env1_torch") == "2.4.1+cpu, cpu");
  CHECK(record.get("python3_on_path") ==
        m.path("home/user/proj/.venv/bin/python3") + " (" + m.path("home/user/proj/.venv") + ")");
  CHECK(record.get("discovery_problems") == "2");
  CHECK(record.get("verdict") == "no_gpu (exit " + std::to_string(r.exit_code) + ")");
}

TEST_CASE("discovery: --no-discover leaves it out; --python adds an environment") {
  test_support::fake_machine m;
  lay_out_discovery_machine(m);
  process_result quiet = run(doctor, {"--no-discover"}, doctor_environment(m));
  CHECK_FALSE(contains(quiet.out, "CUDA toolkits ("));
  CHECK_FALSE(contains(quiet.out, "Python environments ("));
  CHECK_FALSE(contains(quiet.out, "a CUDA toolkit or a Python environment has a problem"));
  process_result quiet_json = run(doctor, {"--no-discover", "--json"}, doctor_environment(m));
  CHECK_FALSE(parsed_json(quiet_json.out).has("discovery.toolkits.length"));
  std::string other = m.venv("work/other-venv", "3.12.3");
  m.torch(other, "2.4.1+cpu", "None", "None", "");
  process_result r = run(doctor, {"--python", m.path("work/other-venv/bin/python")}, doctor_environment(m));
  INFO(r.out);
  CHECK(contains(r.out, "\n  venv " + m.path("work/other-venv") + ": Python 3.12.3 (pyvenv.cfg); found by --python\n"));
  process_result missing = run(doctor, {"--python"}, doctor_environment(m));
  CHECK(missing.exit_code == 64);
  CHECK(contains(missing.err, "missing value after '--python'"));
}

TEST_CASE("discovery: the driver the doctor finds is the one frameworks are checked against") {
  if (has_driver) {
    MESSAGE("this machine has an NVIDIA driver, which the doctor finds before a fixture on LD_LIBRARY_PATH");
    return;
  }
  test_support::fake_machine m;
  lay_out_discovery_machine(m);
  // A 520 driver supports CUDA up to 11.8: torch 2.5.1+cu124 needs CUDA 12.
  m.copy(test_support::discovery_fixture("driver_cuda118", "libcuda.so.1"), "driver/libcuda.so.520.61.05");
  m.tree.symlink("libcuda.so.520.61.05", "driver/libcuda.so.1");
  environment env = doctor_environment(m);
  env["LD_LIBRARY_PATH"] = m.path("driver");
  process_result r = run(doctor, {}, env);
  INFO(r.out << r.err);
  CHECK(contains(r.out, "NVIDIA driver version: 520.61.05, supports CUDA up to 11.8\n"));
  CHECK(contains(r.out,
                 "\n      WARNING: the NVIDIA driver (520.61.05) supports CUDA up to 11.8, older than the CUDA 12.4 "
                 "that torch 2.5.1+cu124 was built for\n"));
  CHECK(contains(r.out,
                 "\n    WARNING: the NVIDIA driver (520.61.05) supports CUDA up to 11.8, older than the CUDA "
                 "12.4.1 toolkit\n"));
  CHECK(r.exit_code == 1);  // this driver lists no GPU: NVML is not there, and the machine's runtime is none
}
