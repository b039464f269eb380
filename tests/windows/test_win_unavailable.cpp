// No cuDNN and no CUDA runtime on Windows: the explicit override names an empty folder. Every stub
// must return its documented fallback, before and after the first failure, with nothing else tried.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "support/fallback_checker.hpp"
#include "support/win_probe.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

const win_test::temp_dir folder;  // stays empty

}  // namespace

TEST_CASE("an override to an empty folder makes both libraries unavailable, with nothing else tried") {
  cushim::options opts;
  opts.files[cushim::library::cudnn] = folder.path();
  opts.files[cushim::library::cudart] = folder.path();
  REQUIRE(cushim::configure(opts));
  CHECK_FALSE(cushim::available(cushim::library::cudnn));
  CHECK_FALSE(cushim::available(cushim::library::cudart));
  for (cushim::library lib : {cushim::library::cudnn, cushim::library::cudart}) {
    const cushim::status& st = cushim::status_of(lib);
    bool cudnn = lib == cushim::library::cudnn;
    CHECK(st.code == cushim::error_code::override_failed);
    REQUIRE(st.attempts.size() == 1);
    CHECK(st.attempts[0].rule == (cudnn ? "options.files[cudnn]" : "options.files[cudart]"));
    CHECK(st.attempts[0].path == folder.path() + "\\" + (cudnn ? CUSHIM_CUDNN_FILE : CUSHIM_CUDART_FILE));
    CHECK(st.attempts[0].result == cushim::outcome::absent);
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
}

TEST_CASE("explain() names the Windows file, the folder and the driver DLL") {
  std::string text = cushim::explain();
  std::string file = folder.path() + "\\" + CUSHIM_CUDNN_FILE;
  CHECK(text.find("    1. options.files[cudnn]: " + file + " -> absent\n") != std::string::npos);
  CHECK(text.find("    fix:  point options.files[cudnn] at a readable " CUSHIM_CUDNN_FILE) != std::string::npos);
  CHECK(text.find("NVIDIA driver: not found") != std::string::npos);
  CHECK(text.find("nvcuda.dll is in none of the 1 places") != std::string::npos);
}
