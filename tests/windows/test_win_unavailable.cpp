// No library on Windows: every explicit override names an empty folder, and Wine has no
// nvcuda.dll in System32, the driver's only place. Every stub of every table must return its
// documented fallback, before and after the first failure, with nothing else tried.
#include <doctest/doctest.h>

#include "support/opt_in_headers.hpp"

#define CUSHIM_IMPLEMENTATION
#include <cushim/diagnostics.hpp>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "support/fallback_checker.hpp"
#include "support/library_files.hpp"
#include "support/win_probe.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

const win_test::temp_dir folder;  // stays empty

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("an override to an empty folder makes each library unavailable, with nothing else tried") {
  cushim::options opts;
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    if (test_support::has_override(lib)) opts.files[lib] = folder.path();
  }
  REQUIRE(cushim::configure(opts));
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    INFO(cushim::to_string(lib));
    CHECK_FALSE(cushim::available(lib));
    const cushim::status& st = cushim::status_of(lib);
    REQUIRE(st.attempts.size() == 1);
    CHECK(st.attempts[0].result == cushim::outcome::absent);
    if (!test_support::has_override(lib)) {
      CHECK(st.code == cushim::error_code::not_found);
      CHECK(st.attempts[0].rule == "System32");
      continue;
    }
    CHECK(st.code == cushim::error_code::override_failed);
    CHECK(st.attempts[0].rule == "options.files[" + std::string(cushim::to_string(lib)) + "]");
    CHECK(st.attempts[0].path == folder.path() + "\\" + test_support::file_of(lib));
  }
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

TEST_CASE("count and version queries report 0") {
  int count = 7, runtime = 7;
  CHECK(cudaGetDeviceCount(&count) == cudaErrorSharedObjectInitFailed);
  CHECK(cudaRuntimeGetVersion(&runtime) == cudaErrorSharedObjectInitFailed);
  CHECK(count == 0);
  CHECK(runtime == 0);
  CHECK(cudnnGetVersion() == 0);
#ifdef CUSHIM_NVRTC
  int major = 7, minor = 7;
  CHECK(nvrtcVersion(&major, &minor) == NVRTC_ERROR_INTERNAL_ERROR);
  CHECK(major == 0);
  CHECK(minor == 0);
#endif
#ifdef CUSHIM_CUDA_DRIVER
  int driver = 7;
  const char* text = nullptr;
  CHECK(cuDriverGetVersion(&driver) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  CHECK(driver == 0);
  CHECK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  REQUIRE(text != nullptr);
  CHECK(std::string(text) == test_support::driver_text);
#endif
}

TEST_CASE("explain() names the Windows file, the folder and the driver DLL") {
  std::string text = cushim::explain();
  std::string file = folder.path() + "\\" + CUSHIM_CUDNN_FILE;
  CHECK(contains(text, "    1. options.files[cudnn]: " + file + " -> absent\n"));
  CHECK(contains(text, "    fix:  point options.files[cudnn] at a readable " CUSHIM_CUDNN_FILE));
  CHECK(contains(text, "NVIDIA driver: not found"));
  CHECK(contains(text, "nvcuda.dll is in none of the 1 places"));
#ifdef CUSHIM_NVRTC
  CHECK(contains(text, "    1. options.files[nvrtc]: " + folder.path() + "\\" + CUSHIM_NVRTC_FILE + " -> absent\n"));
#endif
#ifdef CUSHIM_CUDA_DRIVER
  CHECK(contains(text, "  ERROR: CUDA driver API " + std::to_string(CUDA_VERSION / 1000) +
                           " is unavailable: no usable nvcuda.dll in 1 places searched\n"));
  CHECK(
      contains(text, "    fix:  install the NVIDIA display driver for your GPU (it puts nvcuda.dll into System32)\n"));
#endif
}
