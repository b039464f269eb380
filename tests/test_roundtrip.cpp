// Every function of the tables in use (cuDNN and CUDA runtime) is called through its stub with
// distinct argument values; the recording fixture library must receive each argument unchanged,
// and the value it returns must come back to the caller.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <dlfcn.h>

#include <cushim/status.hpp>
#include <cushim/detail/api_tables.hpp>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/arg_values.hpp"
#include "support/recorder.hpp"
#include "support/table_declarations.hpp"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls

namespace {

const std::string cudnn_fixture = std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_recording/" + CUSHIM_CUDNN_FILE;
const std::string cudart_fixture = std::string(CUSHIM_FIXTURE_DIR) + "/cudart_recording/" + CUSHIM_CUDART_FILE;

// The fixture's recorder, switched on; found in the copy cushim loaded.
recorded_call* start_recording(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE_MESSAGE(handle != nullptr, path << " is not loaded");
  *static_cast<int*>(dlsym(handle, recorder_switch_symbol)) = 1;
  return static_cast<recorded_call*>(dlsym(handle, recorder_symbol));
}

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
    std::tuple<A...> args{make_value<A>(seed + unsigned(I) * 7919u)...};
    std::memset(record, 0, sizeof *record);
    ++checked;
    if constexpr (std::is_void_v<R>) {
      function(std::get<I>(args)...);
    } else {
      R result = function(std::get<I>(args)...);
      if (record->result_size != sizeof(R) || std::memcmp(record->result, &result, sizeof(R)) != 0) {
        failures.push_back(std::string(name) + ": the library's result did not come back");
      }
    }
    if (std::strcmp(record->name, name) != 0) {
      failures.push_back(std::string(name) + ": the library received '" + record->name + "'");
      return;
    }
    if (record->arg_count != int(sizeof...(A))) failures.push_back(std::string(name) + ": argument count differs");
    (check_arg(name, I, std::get<I>(args)), ...);
  }

  template <class T>
  void check_arg(const char* name, std::size_t i, const T& sent) {
    if (record->arg_size[i] != sizeof(T) || std::memcmp(record->args[i], &sent, sizeof(T)) != 0) {
      failures.push_back(std::string(name) + ": argument " + std::to_string(i) + " changed on the way");
    }
  }
};

}  // namespace

TEST_CASE("every stub forwards every argument unchanged and returns the library's result") {
  cushim::options opts;
  opts.files[cushim::library::cudnn] = cudnn_fixture;
  opts.files[cushim::library::cudart] = cudart_fixture;
  REQUIRE(cushim::configure(opts));
  REQUIRE(cushim::available(cushim::library::cudnn));
  REQUIRE(cushim::available(cushim::library::cudart));
  CHECK(cushim::status_of(cushim::library::cudnn).path == cudnn_fixture);

  roundtrip_checker cudnn{start_recording(cudnn_fixture), 0, {}};
  roundtrip_checker cudart{start_recording(cudart_fixture), 0, {}};
  int table_lines = 0;
  auto checker_of = [&](cushim::library lib) -> roundtrip_checker& {
    return lib == cushim::library::cudnn ? cudnn : cudart;
  };
#define CUSHIM_API(lib, group, ret, name, params, args) (++table_lines, checker_of(cushim::library::lib)(#name, &name));
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE
#undef CUSHIM_API

  for (const std::string& f : cudnn.failures) FAIL_CHECK(f);
  for (const std::string& f : cudart.failures) FAIL_CHECK(f);
  CHECK(cudnn.checked + cudart.checked == table_lines);
  CHECK(cudnn.checked >= 200);  // cuDNN 8 and 9 tables both hold over 200 functions
  CHECK(cudart.checked >= 280);
  MESSAGE("round-tripped " << cudnn.checked << " cuDNN and " << cudart.checked << " CUDA runtime functions");
}
