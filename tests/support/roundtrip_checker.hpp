// The argument round trip of the suites that walk a table (test_roundtrip, test_cublas_legacy):
// each call's arguments and result, as bytes, against what the recording library received
// (fixtures/recording_library.cpp, support/recorder.hpp).
#pragma once

#include <dlfcn.h>
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "arg_values.hpp"
#include "recorder.hpp"

namespace test_support {

// The fixture's recorder, switched on; found in the copy cushim loaded.
inline recorded_call* start_recording(const std::string& path) {
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

}  // namespace test_support
