// Runs cushim_probe (tests/probe) in a fresh process and reads what it printed: the scenario
// tests' way to load cuDNN once per case with a chosen environment.
#pragma once

#include <cudnn.h>
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/temp_tree.hpp"

namespace test_support {

inline const std::string cudnn_file = CUSHIM_CUDNN_FILE;
inline const std::string probe_dir = std::string(CUSHIM_PROBE).substr(0, std::string(CUSHIM_PROBE).rfind('/'));
inline const std::string compiled_cudnn =
    std::to_string(CUDNN_MAJOR) + "." + std::to_string(CUDNN_MINOR) + "." + std::to_string(CUDNN_PATCHLEVEL);

// A fixture library built by tests/CMakeLists.txt, e.g. fixture("cudnn_good").
inline std::string fixture(const std::string& folder) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder + "/" + cudnn_file;
}

// Every file of a fixture folder (a whole fake install) copied into `dest` of a temp tree.
inline std::string copy_fixture_folder(const temp_tree& tree, const std::string& folder, const std::string& dest) {
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CUSHIM_FIXTURE_DIR) + "/" + folder)) {
    if (entry.is_regular_file()) tree.copy_file(entry.path().string(), dest + "/" + entry.path().filename().string());
  }
  return tree.path(dest);
}

// The real cuDNN, where the system's ld.so.cache lists it.
inline const std::string& real_cudnn() {
  static const std::string path = test_support::ldconfig_path_of(cudnn_file);
  return path;
}

struct probe_call {
  std::string program = CUSHIM_PROBE;
  std::string argv0;
  std::vector<std::string> args;
  environment env = test_support::clean_environment();
  std::string working_dir;
  std::chrono::milliseconds timeout{20000};
};

struct probe_output : key_values {
  std::string text;  // everything it printed, for failure messages
};

inline probe_output run_probe(const probe_call& call) {
  test_support::process_spec spec;
  spec.program = call.program;
  spec.argv0 = call.argv0;
  spec.args = call.args;
  spec.env = call.env;
  spec.working_dir = call.working_dir;
  spec.timeout = call.timeout;
  test_support::process_result r = test_support::run_process(spec);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.spawn_error == "");
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exit_code == 0);
  probe_output out;
  static_cast<key_values&>(out) = test_support::parse_key_values(r.out);
  out.text = r.out;
  if (out.has("report_parity")) CHECK(out.get("report_parity") == "ok");  // every scenario, both renderers
  return out;
}

inline std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The outcome of the attempt at `path`, or "<not tried>".
inline std::string outcome_at(const key_values& out, const std::string& path) {
  for (const test_support::attempt_line& a : test_support::attempts_of(out)) {
    if (a.path == path) return a.outcome;
  }
  return "<not tried>";
}

inline void check_real_cudnn_from_cache(const probe_output& out) {
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == real_cudnn());
  CHECK(out.get("cudnn.found_by") == "ld.so.cache");
  CHECK(out.get("cudnnGetVersion") == std::to_string(CUDNN_VERSION));
  CHECK_FALSE(out.has("cudnn.identity"));  // not a fake
}

// Loads `library` before main, as if the program were linked with it.
inline void preload(probe_call& call, const std::string& library) {
  call.env["LD_PRELOAD"] = library;
  // An AddressSanitizer build refuses to start when a preloaded library comes before its runtime.
  std::string& asan = call.env["ASAN_OPTIONS"];
  asan += (asan.empty() ? "" : ":") + std::string("verify_asan_link_order=0");
}

}  // namespace test_support
