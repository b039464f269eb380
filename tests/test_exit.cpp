// Calls into cushim at the end of the process (tests/exit/exit_probe.cpp): its first use from a
// global object's destructor or an atexit handler, reports from a destructor, and a detached
// thread calling on while main returns. Each run must exit 0 with what it printed (under ASan in
// the asan preset: no use after free).
#include <cudnn.h>
#include <doctest/doctest.h>

#include <string>

#include "support/process.hpp"

using namespace test_support;

namespace {

process_result run_exit_probe(const char* program, const std::string& mode) {
  process_spec spec;
  spec.program = program;
  spec.args = {mode};
  spec.timeout = std::chrono::seconds(30);
  process_result r = run_process(spec);
  INFO(mode << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
  CHECK(r.term_signal == 0);
  CHECK(r.exit_code == 0);
  return r;
}

bool has_line(const process_result& r, const std::string& line) {
  return ("\n" + r.out).find("\n" + line + "\n") != std::string::npos;
}

const std::string real_cudnn_version = std::to_string(CUDNN_VERSION);  // the real cuDNN, from ld.so.cache

}  // namespace

TEST_CASE("cuDNN's first use from a global object's destructor") {
  process_result r = run_exit_probe(CUSHIM_EXIT_PROBE, "destructor-first-use");
  CHECK(has_line(r, "destructor.cudnnGetVersion=" + real_cudnn_version));
  CHECK(has_line(r, "destructor.explain=1"));
}

TEST_CASE("cuDNN's first use from an atexit handler") {
  process_result r = run_exit_probe(CUSHIM_EXIT_PROBE, "atexit-first-use");
  CHECK(has_line(r, "atexit.cudnnGetVersion=" + real_cudnn_version));
  CHECK(has_line(r, "atexit.explain=1"));
}

TEST_CASE("explain() and explain_json() from a global object's destructor, both libraries loaded") {
  process_result r = run_exit_probe(CUSHIM_EXIT_PROBE, "destructor-explain");
  CHECK(has_line(r, "main.cudnnGetVersion=" + real_cudnn_version));
  CHECK(has_line(r, "destructor.explain=1"));
  CHECK(has_line(r, "destructor.explain_json=1"));
}

TEST_CASE("explain_json() from a destructor in a build without the CUDA runtime (CUSHIM_NO_CUDART)") {
  process_result r = run_exit_probe(CUSHIM_EXIT_PROBE_NO_CUDART, "destructor-explain");
  CHECK(has_line(r, "destructor.explain_json=1"));
}

TEST_CASE("a detached thread still calling cuDNN while main returns: every run exits cleanly") {
  for (int run = 0; run < 20; ++run) {
    CAPTURE(run);
    run_exit_probe(CUSHIM_EXIT_PROBE, "detached-thread");
  }
}
