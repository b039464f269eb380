// Programs with their own kernels (tests/kernels), built with nvcc and no CUDA runtime linked, run
// in a clean environment: nvcc's registration before main and its launches go through cushim,
// with the real runtime (this machine: no driver, so the runtime's own error 35) and without one.
#include <doctest/doctest.h>
#include <signal.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/process.hpp"
#include "support/temp_tree.hpp"

using namespace test_support;

namespace {

const std::string cudart_file = CUSHIM_CUDART_FILE;
const std::vector<std::string> programs = {CUSHIM_KERNEL_PROGRAM, CUSHIM_KERNEL_PROGRAM_PER_THREAD,
                                           CUSHIM_KERNEL_PROGRAM_RDC};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

process_result run(const std::string& program, std::vector<std::string> args, environment env) {
  process_spec spec;
  spec.program = program;
  spec.args = std::move(args);
  spec.env = std::move(env);
  process_result r = run_process(spec);
  REQUIRE(r.spawn_error == "");
  REQUIRE_FALSE(r.timed_out);
  return r;
}

// The program's key=value lines.
std::map<std::string, std::string> values_of(const std::string& out) {
  std::map<std::string, std::string> values;
  std::size_t start = 0;
  while (start < out.size()) {
    std::size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string line = out.substr(start, end - start);
    std::size_t eq = line.find('=');
    if (eq != std::string::npos && line.find(' ') > eq) values[line.substr(0, eq)] = line.substr(eq + 1);
    start = end + 1;
  }
  return values;
}

// The calls each program reports; the separable build also launches a kernel that launches one.
std::vector<std::string> calls_of(const std::string& program) {
  std::vector<std::string> calls = {"malloc",        "memcpy_to_device", "chevron_launch",
                                    "launch_kernel", "memcpy_to_host",   "copy_from_symbol"};
  if (program == CUSHIM_KERNEL_PROGRAM_RDC) calls.push_back("parent_launch");
  return calls;
}

bool machine_has_driver() {
  for (const char* dir : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"}) {
    if (std::filesystem::exists(std::string(dir) + "/libcuda.so.1")) return true;
  }
  return !command_output("/sbin/ldconfig -p 2>/dev/null | grep 'libcuda.so.1 '").empty();
}

}  // namespace

TEST_CASE("a program with kernels links no CUDA runtime") {
  for (const std::string& program : programs) CHECK(cuda_libraries_needed(program) == "");
}

TEST_CASE("the registration loads the runtime before main; launches return the runtime's own result") {
  for (const std::string& program : programs) {
    CAPTURE(program);
    process_result r = run(program, {"--configure"}, clean_environment());
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    std::map<std::string, std::string> v = values_of(r.out);
    CHECK(v["reached_main"] == "1");
    CHECK(v["configure_accepted"] == "0");  // the runtime was already loaded when main began
    CHECK(v["reached_end"] == "1");
    const std::string device_error = v["device_count_error"];
    if (!machine_has_driver()) CHECK(device_error == "35");  // cudaErrorInsufficientDriver, from libcudart
    if (device_error == "0") {
      CHECK(v["values"] == "2,3,4,5");
      continue;
    }
    CHECK(v["devices"] == "0");
    for (const std::string& call : calls_of(program)) {
      CAPTURE(call);
      CHECK(v[call] == device_error);
    }
  }
}

TEST_CASE("without the runtime the program reaches main, launches return 303 and explain() says why") {
  temp_tree tree;
  tree.make_dirs("empty");
  environment env = clean_environment();
  env["CUSHIM_CUDART_PATH"] = tree.path("empty");
  for (const std::string& program : programs) {
    CAPTURE(program);
    process_result r = run(program, {"--explain"}, env);
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(r.term_signal == 0);
    REQUIRE(r.exit_code == 0);
    std::map<std::string, std::string> v = values_of(r.out);
    CHECK(v["reached_main"] == "1");
    CHECK(v["reached_end"] == "1");
    CHECK(v["device_count_error"] == "303");
    CHECK(v["devices"] == "0");
    for (const std::string& call : calls_of(program)) {
      CAPTURE(call);
      CHECK(v[call] == "303");
    }
    CHECK(contains(r.out, "CUDA runtime: UNAVAILABLE (override_failed)"));
    CHECK(contains(r.out, "1. CUSHIM_CUDART_PATH: " + tree.path("empty") + "/" + cudart_file + " -> absent"));
    CHECK(contains(r.out,
                   "effect: cuda* calls and kernel launches return cudaErrorSharedObjectInitFailed; the "
                   "program's own kernels and variables were registered as no-ops"));
    CHECK(r.err.empty());
  }
}

TEST_CASE("with fail_fast the first launch stops the process, not the registration") {
  temp_tree tree;
  tree.make_dirs("empty");
  environment env = clean_environment();
  env["CUSHIM_CUDART_PATH"] = tree.path("empty");
  env["CUSHIM_FAIL_FAST"] = "1";
  for (const std::string& program : programs) {
    CAPTURE(program);
    process_result r = run(program, {"--launch-first"}, env);
    CAPTURE(r.err);
    CHECK(r.term_signal == SIGABRT);
    CHECK(values_of(r.out)["reached_main"] == "1");
    CHECK(r.err.rfind("cushim: __cudaPushCallConfiguration cannot reach CUDA runtime, and fail_fast is set", 0) == 0);
    CHECK(contains(r.err, "1. CUSHIM_CUDART_PATH: " + tree.path("empty") + "/" + cudart_file + " -> absent"));
  }
}

TEST_CASE("the per-thread build's implementation file defines the plain and the per-thread names") {
  std::string symbols = command_output("nm --defined-only '" + programs[1] + "'");
  for (const char* name : {"cudaMemcpy", "cudaMemcpy_ptds", "cudaLaunchKernel", "cudaLaunchKernel_ptsz",
                           "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz", "cudaMemcpyAsync_ptsz"}) {
    CAPTURE(name);
    CHECK(contains(symbols, std::string(" T ") + name + "@@CUSHIM_1\n"));  // an executable's stubs are versioned
  }
}

#ifdef CUSHIM_LIBRARY_SAMPLES
// kernels/library_samples.cu: NVIDIA's samples' use of cuFFT, cuSPARSE with cuBLAS, cuSOLVER and
// cuRAND, with kernels of its own, built with nvcc -cudart none and no import library.
TEST_CASE("a program with kernels and the toolkit's libraries links none of them and reaches its first CUDA error") {
  CHECK(cuda_libraries_needed(CUSHIM_LIBRARY_SAMPLES) == "");
  std::string symbols = command_output("readelf -d '" + std::string(CUSHIM_LIBRARY_SAMPLES) + "'");
  for (const char* library : {"libcufft", "libcusparse", "libcublas", "libcusolver", "libcurand"}) {
    CAPTURE(library);
    CHECK_FALSE(contains(symbols, library));
  }
  process_result r = run(CUSHIM_LIBRARY_SAMPLES, {}, clean_environment());
  CAPTURE(r.out);
  CAPTURE(r.err);
  REQUIRE(r.term_signal == 0);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::string> v = values_of(r.out);
  CHECK(v["reached_main"] == "1");
  CHECK(v["reached_end"] == "1");
  // Each library is the toolkit's own, loaded through cushim: what it answers is its own.
  for (const char* key : {"fft", "sparse", "blas", "dense", "random"}) {
    CAPTURE(key);
    CHECK(v[std::string(key) + ".code"] == "ok");
  }
  if (!machine_has_driver()) {
    CHECK(v["first_cuda_error"] == "35");  // cudaErrorInsufficientDriver, from libcudart
    CHECK(v["fft.malloc"] == "35");
    CHECK(v["fft.cufftPlan1d"] != "0");
    CHECK(v["sparse.cusparseCreate"] != "0");
    CHECK(v["sparse.cublasCreate"] != "0");
    CHECK(v["dense.cusolverDnCreate"] != "0");
    CHECK(v["random.curandCreateGenerator"] != "0");
  } else if (v["first_cuda_error"] == "0") {
    CHECK(v["fft.forward"] == "0");
    CHECK(v["fft.kernel"] == "0");
    CHECK(v["sparse.cusparseSpMV"] == "0");
    CHECK(v["dense.cusolverDnSgetrf_bufferSize"] == "0");
    CHECK(v["random.curandGenerateUniform"] == "0");
  }
}
#endif
