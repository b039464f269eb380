// No library at all: every override names an empty folder, which is authoritative, and the
// driver (which has no override) is a copy already in the process that is not the driver. Every
// stub of every table must return its documented fallback, before and after the first failure,
// and explain() must say what was tried and what to do.
#include <doctest/doctest.h>
#include <dlfcn.h>

#include "support/opt_in_headers.hpp"

#include <cushim/diagnostics.hpp>  // CUSHIM_IMPLEMENTATION: support/implementation_opted_in.cpp

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "support/fallback_checker.hpp"
#include "support/library_files.hpp"
#include "support/temp_tree.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

const test_support::temp_tree folder;  // stays empty; removed at exit

std::string empty_folder() { return folder.root(); }

// For a library found only where the system installs it (no override): a file of its name that is
// not the library (libcuda.so.1 without cuDriverGetVersion), loaded before cushim starts: it is
// then unavailable on a machine that has it too, the same way.
std::string not_the_library(cushim::library lib) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + test_support::key_of(lib) + "_no_version/" +
         test_support::file_of(lib);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("an override to an empty folder makes each library unavailable, with nothing else tried") {
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    if (!test_support::has_override(lib))
      REQUIRE(dlopen(not_the_library(lib).c_str(), RTLD_NOW | RTLD_LOCAL) != nullptr);
  }
  cushim::options opts;
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    if (test_support::has_override(lib)) opts.files[lib] = empty_folder();
  }
  REQUIRE(cushim::configure(opts));
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    INFO(cushim::to_string(lib));
    CHECK_FALSE(cushim::available(lib));
    const cushim::status& st = cushim::status_of(lib);
    CHECK(st.path.empty());
    REQUIRE(st.attempts.size() == 1);
    REQUIRE_FALSE(st.problems.empty());
    CHECK(st.problems[0].fatal);
    if (!test_support::has_override(lib)) {
      CHECK(st.code == cushim::error_code::already_loaded_mismatch);
      CHECK(st.attempts[0].rule == "already loaded in this process");
      CHECK(st.attempts[0].path == not_the_library(lib));
      CHECK(st.attempts[0].result == cushim::outcome::not_the_library);
      continue;
    }
    std::string file = empty_folder() + "/" + test_support::file_of(lib);
    CHECK(st.code == cushim::error_code::override_failed);
    CHECK(cushim::error_of(lib) == cushim::error_code::override_failed);
    CHECK(st.attempts[0].rule == "options.files[" + std::string(cushim::to_string(lib)) + "]");
    CHECK(st.attempts[0].path == file);
    CHECK(st.attempts[0].result == cushim::outcome::absent);
    REQUIRE(st.problems.size() == 1);
    CHECK(st.problems[0].code == cushim::error_code::override_failed);
    CHECK(st.problems[0].path == file);
  }
  CHECK(std::string(cushim::to_string(cushim::error_of(cushim::library::cudnn))) == "override_failed");
}

TEST_CASE("every stub returns its fallback, again and again") {
  for (int round = 0; round < 2; ++round) {
    int table_lines = 0;
    test_support::fallback_checker check = test_support::check_every_stub(table_lines);
    for (const std::string& name : check.failures) FAIL_CHECK(name << " did not return its fallback");
    CHECK(check.checked == table_lines);
    CHECK(check.checked > 480);
  }
}

TEST_CASE("count and version queries report 0; size_t queries return 0") {
  int count = 7, runtime = 7, driver = 7;
  CHECK(cudaGetDeviceCount(&count) == cudaErrorSharedObjectInitFailed);
  CHECK(cudaRuntimeGetVersion(&runtime) == cudaErrorSharedObjectInitFailed);
  CHECK(cudaDriverGetVersion(&driver) == cudaErrorSharedObjectInitFailed);
  CHECK(count == 0);
  CHECK(runtime == 0);
  CHECK(driver == 0);
  CHECK(cudnnGetVersion() == 0);
  CHECK(cudnnGetCudartVersion() == 0);
  cudnnHandle_t handle = nullptr;
  CHECK(cudnnCreate(&handle) == CUDNN_STATUS_NOT_INITIALIZED);
  CHECK(handle == nullptr);
  CHECK(std::string(cudnnGetErrorString(CUDNN_STATUS_SUCCESS)) == test_support::cudnn_text);
  CHECK(std::string(cudaGetErrorString(cudaSuccess)) == test_support::cudart_text);
}

#ifdef CUSHIM_CUBLAS
TEST_CASE("cuBLAS and cuBLASLt: CUBLAS_STATUS_NOT_INITIALIZED, versions 0, texts pointing at explain()") {
  int version = 7, major = 7, lt_major = 7;
  CHECK(cublasGetVersion(nullptr, &version) == CUBLAS_STATUS_NOT_INITIALIZED);
  CHECK(cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_NOT_INITIALIZED);
  CHECK(cublasLtGetProperty(MAJOR_VERSION, &lt_major) == CUBLAS_STATUS_NOT_INITIALIZED);
  CHECK(version == 0);
  CHECK(major == 0);
  CHECK(lt_major == 0);
  CHECK(cublasLtGetVersion() == 0);
  cublasHandle_t handle = nullptr;
  CHECK(cublasCreate(&handle) == CUBLAS_STATUS_NOT_INITIALIZED);
  CHECK(handle == nullptr);
  CHECK(std::string(cublasGetStatusString(CUBLAS_STATUS_SUCCESS)) == test_support::cublas_text);
  CHECK(std::string(cublasLtGetStatusString(CUBLAS_STATUS_SUCCESS)) == test_support::cublaslt_text);
}
#endif

#ifdef CUSHIM_NVRTC
TEST_CASE("NVRTC: NVRTC_ERROR_INTERNAL_ERROR, version 0.0, a text pointing at explain()") {
  int major = 7, minor = 7;
  CHECK(nvrtcVersion(&major, &minor) == NVRTC_ERROR_INTERNAL_ERROR);
  CHECK(major == 0);
  CHECK(minor == 0);
  nvrtcProgram program = nullptr;
  CHECK(nvrtcCreateProgram(&program, "", "k.cu", 0, nullptr, nullptr) == NVRTC_ERROR_INTERNAL_ERROR);
  CHECK(program == nullptr);
  CHECK(std::string(nvrtcGetErrorString(NVRTC_SUCCESS)) == test_support::nvrtc_text);
}
#endif

#ifdef CUSHIM_CUDA_DRIVER
TEST_CASE("the driver API: CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, counts 0, error texts pointing at explain()") {
  int version = 7, count = 7;
  CHECK(cuInit(0) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  CHECK(cuDriverGetVersion(&version) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  CHECK(cuDeviceGetCount(&count) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  CHECK(version == 0);
  CHECK(count == 0);
  const char* text = nullptr;
  const char* name = nullptr;
  CHECK(cuGetErrorString(CUDA_SUCCESS, &text) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  CHECK(cuGetErrorName(CUDA_SUCCESS, &name) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  REQUIRE(text != nullptr);
  REQUIRE(name != nullptr);
  CHECK(std::string(text) == test_support::driver_text);
  CHECK(std::string(name) == test_support::driver_text);
  CHECK(cuGetErrorString(CUDA_SUCCESS, nullptr) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);  // tolerated
}
#endif

#if CUDNN_MAJOR >= 9
TEST_CASE("cudnnGetLastErrorString writes the explanation pointer into the caller's buffer") {
  char small[16];
  std::memset(small, 'x', sizeof small);
  cudnnGetLastErrorString(small, sizeof small);
  CHECK(std::string(small) == std::string(test_support::cudnn_text).substr(0, 15));
  cudnnGetLastErrorString(nullptr, 100);  // tolerated
}
#endif

TEST_CASE("explain() names the folder, the file, the code and the fix") {
  std::string text = cushim::explain();
  std::string file = empty_folder() + "/" + CUSHIM_CUDNN_FILE;
  CHECK(contains(text, "cuDNN: UNAVAILABLE (override_failed), compiled with " + std::to_string(CUDNN_MAJOR) + "."));
  CHECK(contains(text, "    1. options.files[cudnn]: " + file + " -> absent\n"));
  CHECK(contains(text, "  ERROR: cuDNN was not loaded from the explicit location options.files[cudnn] names"));
  CHECK(contains(text, "    file: " + file + "\n"));
  CHECK(contains(text, "    fix:  point options.files[cudnn] at a readable " + std::string(CUSHIM_CUDNN_FILE)));
  CHECK(contains(text, "  effect: cudnn* calls return CUDNN_STATUS_NOT_INITIALIZED"));
  CHECK(contains(text, "CUDA runtime: UNAVAILABLE (override_failed)"));
}

TEST_CASE("explain() names each opted-in library's override and effect, and the copy that is not the driver") {
  std::string text = cushim::explain();
  struct expected_section {
    cushim::library lib;
    const char* title;
    const char* effect;
  };
  const expected_section sections[] = {
      {cushim::library::cublas, "cuBLAS", "cublas* calls return CUBLAS_STATUS_NOT_INITIALIZED; version queries set 0"},
      {cushim::library::cublasLt, "cuBLASLt",
       "cublasLt* calls return CUBLAS_STATUS_NOT_INITIALIZED; cublasLtGetVersion returns 0"},
      {cushim::library::nvrtc, "NVRTC", "nvrtc* calls return NVRTC_ERROR_INTERNAL_ERROR; nvrtcVersion sets 0"}};
  for (const expected_section& s : sections) {
    if (cushim::error_of(s.lib) == cushim::error_code::disabled) continue;
    std::string key = cushim::to_string(s.lib), file = empty_folder() + "/" + test_support::file_of(s.lib);
    INFO(key);
    CHECK(contains(text, "\n" + std::string(s.title) + ": UNAVAILABLE (override_failed), compiled with "));
    CHECK(contains(text, "    1. options.files[" + key + "]: " + file + " -> absent\n"));
    CHECK(contains(
        text, "  ERROR: " + std::string(s.title) + " was not loaded from the explicit location options.files[" + key +
                  "] names; cushim does not fall back to a search when one is given\n    file: " + file + "\n"));
    CHECK(contains(text, "    fix:  point options.files[" + key + "] at a readable " + test_support::file_of(s.lib)));
    CHECK(contains(text, "  effect: " + std::string(s.effect) + "\n"));
  }
#ifdef CUSHIM_CUDA_DRIVER
  CHECK(contains(text, "\nCUDA driver API: UNAVAILABLE (already_loaded_mismatch), compiled with "));
  CHECK(contains(text, "    1. already loaded in this process: " + not_the_library(cushim::library::driver) +
                           " -> not_the_library (does not export cuDriverGetVersion, so it is not CUDA driver API)\n"));
  CHECK(contains(text, "  ERROR: the CUDA driver API already loaded in this process is unusable\n"));
  CHECK(contains(text, "  effect: cu* calls return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"));
  // One search for both: the driver section lists the same refused copy.
  CHECK(contains(text, "NVIDIA driver: not found\n    already loaded in this process: " +
                           not_the_library(cushim::library::driver) + " -> not_the_library ("));
#endif
}

TEST_CASE("configure() after loading is refused and reported") {
  cushim::options late;
  CHECK_FALSE(cushim::configure(late));
  CHECK(cushim::explain().find("NOTE: configure() was called after a library was loaded") != std::string::npos);
  CHECK(cushim::explain_json().find("\"notes\":[\"configure() was called after") != std::string::npos);
}
