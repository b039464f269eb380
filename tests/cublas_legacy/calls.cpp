// Calls cublas.h's legacy API through cushim and prints what came back (key=value): the answers
// of the cuBLAS cushim found, and with cuBLAS unavailable whether every stub of every table in use,
// the legacy table's too, returned its documented fallback (support/fallback_checker.hpp).
#include "support/opt_in_headers.hpp"

#include <cushim/cushim.hpp>

#include <cstdio>

#include "support/fallback_checker.hpp"

int main() {
  int version = -1;
  const cublasStatus_t got_version = cublasGetVersion(&version);
  std::printf("get_version=%d\nversion=%d\n", int(got_version), version);
  std::printf("init=%d\n", int(cublasInit()));
  std::printf("shutdown=%d\n", int(cublasShutdown()));
  std::printf("available=%d\n", int(cushim::available(cushim::library::cublas)));
  if (!cushim::available(cushim::library::cublas)) {
    int table_lines = 0;
    test_support::fallback_checker check = test_support::check_every_stub(table_lines);
    std::printf("stubs=%d\nchecked=%d\n", table_lines, check.checked);
    for (const std::string& name : check.failures) std::printf("wrong_fallback=%s\n", name.c_str());
  }
  return 0;
}
