// The opt-in fail-fast policy: with options.fail_fast or CUSHIM_FAIL_FAST=1, the first call that
// cannot reach its library writes the explanation to stderr and aborts; without it, or when the
// library works, nothing stops. Each case runs cushim_probe in a process of its own.
#include <cudnn.h>
#include <doctest/doctest.h>

#include <csignal>
#include <string>
#include <vector>

#include "support/probe.hpp"
#include "support/temp_tree.hpp"

using namespace test_support;

namespace {

process_result run(const environment& extra, const std::vector<std::string>& args) {
  process_spec spec;
  spec.program = CUSHIM_PROBE;
  spec.args = args;
  for (const auto& [name, value] : extra) spec.env[name] = value;
  return run_process(spec);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("CUSHIM_FAIL_FAST=1: the first cuDNN call without cuDNN prints why and aborts") {
  temp_tree empty;
  process_result r = run({{"CUSHIM_FAIL_FAST", "1"}, {"CUSHIM_CUDNN_PATH", empty.root()}}, {});
  INFO(r.out, r.err);
  CHECK(r.term_signal == SIGABRT);
  // The probe asked status_of() first, which never stops the process: the stop names the call.
  CHECK(contains(r.err,
                 "cushim: cudnnGetVersion cannot reach cuDNN, and fail_fast is set (options.fail_fast or "
                 "CUSHIM_FAIL_FAST=1): stopping the process.\n"));
  CHECK(contains(r.err, "\ncuDNN: UNAVAILABLE (override_failed)"));
}

TEST_CASE("options.fail_fast does the same; CUSHIM_FAIL_FAST is ignored with use_environment = false") {
  temp_tree empty;
  process_result r = run({}, {"--fail-fast", "--cudnn-file", empty.root()});
  INFO(r.out, r.err);
  CHECK(r.term_signal == SIGABRT);
  CHECK(contains(r.err, "cushim: cudnnGetVersion cannot reach cuDNN"));

  r = run({{"CUSHIM_FAIL_FAST", "1"}}, {"--no-env", "--cudnn-file", empty.root()});
  INFO(r.out, r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "cudnnGetVersion=0\n"));
}

TEST_CASE("CUSHIM_FAIL_FAST=1 with usable libraries, or set to anything but 1: nothing stops") {
  process_result r = run({{"CUSHIM_FAIL_FAST", "1"},
                          {"CUSHIM_CUDNN_PATH", std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_tree"},
                          {"CUSHIM_CUDART_PATH", std::string(CUSHIM_FIXTURE_DIR) + "/cudart_good"}},
                         {"--call-convolution"});
  INFO(r.out, r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "cudnnGetVersion=" + std::to_string(CUDNN_VERSION) + "\n"));
  temp_tree empty;
  r = run({{"CUSHIM_FAIL_FAST", "yes"}, {"CUSHIM_CUDNN_PATH", empty.root()}}, {});
  CHECK(r.exit_code == 0);
}

TEST_CASE("CUSHIM_FAIL_FAST=1: a call into an unusable sub-library stops too, naming the function") {
  temp_tree tree;
  std::string dir = copy_fixture_folder(tree, "cudnn_tree", "cudnn");
  tree.copy_file(
      std::string(CUSHIM_FIXTURE_DIR) + "/cnn_needs_dependency/libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR),
      "cudnn/libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR));
  process_result r = run({{"CUSHIM_FAIL_FAST", "1"}, {"CUSHIM_CUDNN_PATH", dir}}, {"--convolution-first"});
  INFO(r.out, r.err);
  CHECK(r.term_signal == SIGABRT);
  // cudnnGetVersion, called first, went through: the stop names the cnn function.
  CHECK(contains(r.err, "cushim: cudnnConvolutionForward cannot reach cuDNN, and fail_fast is set"));
  CHECK(contains(r.err, "needs libfakedependency.so"));
}
