// Every function of the tables in use (cuDNN, the CUDA runtime and each library the build opts
// into) is called through its stub with distinct argument values; the recording fixture library
// of its library must receive each argument unchanged, and the value it returns must come back to
// the caller.
#include <doctest/doctest.h>
#include <dlfcn.h>

#include "support/opt_in_headers.hpp"

#include <cushim/diagnostics.hpp>
#include <cushim/detail/tables/api_tables.hpp>
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "support/arg_values.hpp"
#include "support/library_files.hpp"
#include "support/recorder.hpp"
#include "support/roundtrip_checker.hpp"
#include "support/table_declarations.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

using test_support::roundtrip_checker;
using test_support::start_recording;

// The recording library of each library: <fixtures>/<key>_recording/<its file name>.
std::string fixture_of(cushim::library lib) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + cushim::to_string(lib) + "_recording/" + test_support::file_of(lib);
}

// What status_of(lib).path says for the fixture at `path`: an override as it was given; a copy
// found already in the process (the driver) by the name the system gives it, which on Windows
// (GetModuleFileNameW) has backslashes.
std::string reported_path(cushim::library lib, std::string path) {
#ifdef _WIN32
  if (!test_support::has_override(lib)) std::replace(path.begin(), path.end(), '/', '\\');
#endif
  static_cast<void>(lib);
  return path;
}

}  // namespace

TEST_CASE("every stub forwards every argument unchanged and returns the library's result") {
  // The recording file of each library, by the name cushim searches for (the driver has no
  // override: its recording copy is loaded first, and cushim reuses the copy in the process).
  std::map<cushim::library, std::string> fixtures;
  cushim::options opts;
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    fixtures[lib] = fixture_of(lib);
    if (test_support::has_override(lib)) {
      opts.files[lib] = fixtures[lib];
    } else {
      REQUIRE_MESSAGE(dlopen(fixtures[lib].c_str(), RTLD_NOW) != nullptr, fixtures[lib] << " does not load");
    }
  }
  REQUIRE(cushim::configure(opts));
  std::map<cushim::library, roundtrip_checker> checkers;
  for (const auto& [lib, path] : fixtures) {
    INFO(cushim::to_string(lib));
    REQUIRE(cushim::available(lib));
    CHECK(cushim::status_of(lib).path == reported_path(lib, path));
    checkers.emplace(lib, roundtrip_checker{start_recording(path), 0, {}});
  }

  int table_lines = 0;
  auto checker_of = [&](cushim::library lib) -> roundtrip_checker& { return checkers.at(lib); };
  // The table's prototype picks the C function where <cublas_api.h> adds C++ overloads of its name.
#define CUSHIM_API(lib, group, ret, name, params, args) \
  (++table_lines, checker_of(cushim::library::lib)(CUSHIM_NAME_TEXT(name), static_cast<ret(*) params>(&name)));
#include <cushim/detail/tables/library_tables.inc>
#undef CUSHIM_API

  int checked = 0;
  for (const auto& [lib, checker] : checkers) {
    for (const std::string& f : checker.failures) FAIL_CHECK(f);
    checked += checker.checked;
    MESSAGE("round-tripped " << checker.checked << " " << std::string(cushim::diagnostics::display_name(lib))
                             << " functions");
  }
  CHECK(checked == table_lines);
  CHECK(checkers.at(cushim::library::cudnn).checked >= 200);  // cuDNN 8 and 9 tables both hold over 200 functions
  CHECK(checkers.at(cushim::library::cudart).checked >= 280);
#ifdef CUSHIM_CUBLAS
  CHECK(checkers.at(cushim::library::cublas).checked >= 250);  // cuBLAS 11's table is the smallest
  CHECK(checkers.at(cushim::library::cublasLt).checked >= 40);
#endif
#ifdef CUSHIM_NVRTC
  CHECK(checkers.at(cushim::library::nvrtc).checked >= 15);
#endif
#ifdef CUSHIM_CUDA_DRIVER
  CHECK(checkers.at(cushim::library::driver).checked >= 350);
#endif
}
