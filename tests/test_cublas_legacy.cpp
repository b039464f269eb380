// cublas.h's legacy API (cublasInit, cublasAlloc, cublasSgemm without a handle), which a program
// includes instead of cublas_v2.h: its table is in use exactly there. Each of its functions
// round-trips to a cuBLAS built from cublas.h; through the shim the real cuBLAS answers; with cuBLAS
// unavailable every stub returns its fallback (cublas_legacy_calls, a program of its own).
#include <doctest/doctest.h>

#include "support/opt_in_headers.hpp"

#include <cushim/status.hpp>  // CUSHIM_IMPLEMENTATION: support/implementation_legacy_cublas.cpp
#include <cushim/detail/tables/api_tables.hpp>

#include <string>

#include "support/library_files.hpp"
#include "support/process.hpp"
#include "support/roundtrip_checker.hpp"
#include "support/temp_tree.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the legacy API is deprecated

using namespace test_support;

namespace {

std::string fixture(const std::string& folder, cushim::library lib) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder + "/" + file_of(lib);
}

key_values run_calls(const environment& variables) {
  process_spec spec;
  spec.program = CUSHIM_CUBLAS_LEGACY_CALLS;
  for (const auto& v : variables) spec.env[v.first] = v.second;
  process_result r = run_process(spec);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  return parse_key_values(r.out);
}

}  // namespace

TEST_CASE("every function of the legacy table round-trips to a cuBLAS built from cublas.h") {
  cushim::options opts;
  const std::string recording = fixture("cublas_legacy_recording", cushim::library::cublas);
  opts.files[cushim::library::cublas] = recording;
  opts.files[cushim::library::cublasLt] = fixture("cublasLt_recording", cushim::library::cublasLt);
  REQUIRE(cushim::configure(opts));
  REQUIRE(cushim::available(cushim::library::cublas));
  roundtrip_checker checker{start_recording(recording), 0, {}};
  int table_lines = 0;
#define CUSHIM_API(lib, group, ret, name, params, args) \
  (++table_lines, checker(#name, static_cast<ret(*) params>(&name)));
#include CUSHIM_CUBLAS_LEGACY_TABLE
#undef CUSHIM_API
  for (const std::string& f : checker.failures) FAIL_CHECK(f);
  CHECK(checker.checked == table_lines);
  CHECK(table_lines >= 150);  // 157 in CUDA 13.0's cublas.h
}

TEST_CASE("through the shim the real cuBLAS answers the legacy API") {
  key_values out = run_calls({});
  CHECK(out.get("available") == "1");
  CHECK(out.get("get_version") == "0");
  CHECK(out.get("version") == std::to_string(CUBLAS_VERSION));
  CHECK(out.get("shutdown") == "0");  // the fallback would be CUBLAS_STATUS_NOT_INITIALIZED (1)
}

TEST_CASE("with every library unavailable each stub, the legacy table's too, returns its fallback") {
  temp_tree tree;
  const std::string empty = tree.make_dirs("empty");
  key_values out = run_calls({{"CUSHIM_CUDNN_PATH", empty},
                              {"CUSHIM_CUDART_PATH", empty},
                              {"CUSHIM_CUBLAS_PATH", empty},
                              {"CUSHIM_CUBLASLT_PATH", empty}});
  CHECK(out.get("available") == "0");
  CHECK(out.get("get_version") == "1");
  CHECK(out.get("version") == "0");  // the legacy cublasGetVersion zeroes its output, as its _v2 does
  CHECK(out.get("init") == "1");
  CHECK(out.get("shutdown") == "1");
  CHECK(out.all("wrong_fallback").empty());
  CHECK(out.get("checked") == out.get("stubs"));
  CHECK(std::stoi(out.get("stubs")) > 900);  // cuDNN, the runtime, cuBLAS with its legacy API, cuBLASLt
}
