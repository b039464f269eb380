// Every function of the tables in use (cuDNN, the CUDA runtime and each library the build opts
// into) is called through its stub with distinct argument values; the recording fixture library
// of its library must receive each argument unchanged, and the value it returns must come back to
// the caller.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <dlfcn.h>

#include "support/opt_in_headers.hpp"

#include <cushim/diagnostics.hpp>
#include <cushim/detail/api_tables.hpp>
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "support/arg_values.hpp"
#include "support/library_files.hpp"
#include "support/recorder.hpp"
#include "support/table_declarations.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

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

// The fixture's recorder, switched on; found in the copy cushim loaded.
recorded_call* start_recording(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE_MESSAGE(handle != nullptr, path << " is not loaded");
  *static_cast<int*>(dlsym(handle, recorder_switch_symbol)) = 1;
  return static_cast<recorded_call*>(dlsym(handle, recorder_symbol));
}

// What one call sent and got back, as bytes: the checks below are one function for every
// signature, so each of the thousands of table signatures instantiates only the call itself.
struct sent_call {
  const char* name;
  std::size_t arg_count;
  const void* const* args;
  const std::size_t* arg_sizes;
  const void* result;  // null for a void function
  std::size_t result_size;
};

struct roundtrip_checker {
  recorded_call* record;
  int checked = 0;
  std::vector<std::string> failures;

  template <class R, class... A>
  void operator()(const char* name, R (*function)(A...)) {
    call(name, function, std::index_sequence_for<A...>{});
  }

  template <class R, class... A, std::size_t... I>
  void call(const char* name, R (*function)(A...), std::index_sequence<I...>) {
    const unsigned seed = name_hash(name);
    send(name, function, make_value<A>(seed + unsigned(I) * 7919u)...);
  }

  // The values arrive as parameters, not in a std::tuple: a tuple's constructors cost more to
  // instantiate than everything else in this file.
  template <class R, class... A>
  void send(const char* name, R (*function)(A...), A... args) {
    const void* arg_pointers[sizeof...(A) + 1] = {&args..., nullptr};
    const std::size_t arg_sizes[sizeof...(A) + 1] = {sizeof(A)..., 0};
    std::memset(record, 0, sizeof *record);
    if constexpr (std::is_void_v<R>) {
      function(args...);
      check({name, sizeof...(A), arg_pointers, arg_sizes, nullptr, 0});
    } else {
      R result = function(args...);
      check({name, sizeof...(A), arg_pointers, arg_sizes, &result, sizeof(R)});
    }
  }

  void check(const sent_call& sent) {
    ++checked;
    const std::string name = sent.name;
    if (sent.result &&
        (record->result_size != sent.result_size || std::memcmp(record->result, sent.result, sent.result_size) != 0)) {
      failures.push_back(name + ": the library's result did not come back");
    }
    if (name != record->name) {
      failures.push_back(name + ": the library received '" + record->name + "'");
      return;
    }
    if (record->arg_count != int(sent.arg_count)) failures.push_back(name + ": argument count differs");
    for (std::size_t i = 0; i < sent.arg_count; ++i) {
      if (record->arg_size[i] != sent.arg_sizes[i] ||
          std::memcmp(record->args[i], sent.args[i], sent.arg_sizes[i]) != 0) {
        failures.push_back(name + ": argument " + std::to_string(i) + " changed on the way");
      }
    }
  }
};

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
#include <cushim/detail/library_tables.inc>
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
