// No cuDNN and no CUDA runtime: the explicit override names an empty folder, which is
// authoritative. Every stub must return its documented fallback, before and after the first
// failure, and explain() must say what was tried and what to do.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "support/fallback_checker.hpp"
#include "support/temp_tree.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

const test_support::temp_tree folder;  // stays empty; removed at exit

std::string empty_folder() { return folder.root(); }

}  // namespace

TEST_CASE("an override to an empty folder makes both libraries unavailable, with nothing else tried") {
  cushim::options opts;
  opts.files[cushim::library::cudnn] = empty_folder();
  opts.files[cushim::library::cudart] = empty_folder();
  REQUIRE(cushim::configure(opts));
  CHECK_FALSE(cushim::available(cushim::library::cudnn));
  CHECK_FALSE(cushim::available(cushim::library::cudart));

  const cushim::status& dnn = cushim::status_of(cushim::library::cudnn);
  CHECK(dnn.code == cushim::error_code::override_failed);
  CHECK(cushim::error_of(cushim::library::cudnn) == cushim::error_code::override_failed);
  CHECK(cushim::error_of(cushim::library::cudart) == cushim::error_code::override_failed);
  CHECK(std::string(cushim::to_string(cushim::error_of(cushim::library::cudnn))) == "override_failed");
  REQUIRE(dnn.attempts.size() == 1);
  CHECK(dnn.attempts[0].rule == "options.files[cudnn]");
  CHECK(dnn.attempts[0].path == empty_folder() + "/" + CUSHIM_CUDNN_FILE);
  CHECK(dnn.attempts[0].result == cushim::outcome::absent);
  CHECK(dnn.path.empty());
  REQUIRE(dnn.problems.size() == 1);
  CHECK(dnn.problems[0].code == cushim::error_code::override_failed);
  CHECK(dnn.problems[0].fatal);
  CHECK(dnn.problems[0].path == empty_folder() + "/" + CUSHIM_CUDNN_FILE);
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
  CHECK(text.find("cuDNN: UNAVAILABLE (override_failed), compiled with " + std::to_string(CUDNN_MAJOR) + ".") !=
        std::string::npos);
  CHECK(text.find("    1. options.files[cudnn]: " + file + " -> absent\n") != std::string::npos);
  CHECK(text.find("  ERROR: cuDNN was not loaded from the explicit location options.files[cudnn] names") !=
        std::string::npos);
  CHECK(text.find("    file: " + file + "\n") != std::string::npos);
  CHECK(text.find("    fix:  point options.files[cudnn] at a readable " + std::string(CUSHIM_CUDNN_FILE)) !=
        std::string::npos);
  CHECK(text.find("  effect: cudnn* calls return CUDNN_STATUS_NOT_INITIALIZED") != std::string::npos);
  CHECK(text.find("CUDA runtime: UNAVAILABLE (override_failed)") != std::string::npos);
}

TEST_CASE("configure() after loading is refused and reported") {
  cushim::options late;
  CHECK_FALSE(cushim::configure(late));
  CHECK(cushim::explain().find("NOTE: configure() was called after a library was loaded") != std::string::npos);
  CHECK(cushim::explain_json().find("\"notes\":[\"configure() was called after") != std::string::npos);
}
