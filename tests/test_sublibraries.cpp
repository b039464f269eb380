// cuDNN's own sub-libraries and the other checks made before cuDNN runs: each failure mode is a
// fixture, run through the probe in a fresh process, and the explanation must name the exact
// files, paths and codes.
#include <cudnn.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "support/elf_files.hpp"
#include "support/probe.hpp"
#include "support/temp_tree.hpp"

using namespace test_support;

namespace {

const int major = CUDNN_MAJOR;
const std::vector<std::string> sub_names = {
    "graph", "ops", "cnn", "adv", "heuristic", "engines_precompiled", "engines_runtime_compiled"};

std::string sub_file(const std::string& name) { return "libcudnn_" + name + ".so." + std::to_string(major); }
std::string tree_dir(const std::string& folder) { return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder; }

// A copy of a fixture tree in a temp folder, so a test can remove or replace one file.
std::string copy_tree(const temp_tree& tree, const std::string& folder, const std::string& except = "") {
  tree.copy_file(tree_dir(folder) + "/" + cudnn_file, cudnn_file);
  for (const std::string& name : sub_names) {
    if (name != except) tree.copy_file(tree_dir(folder) + "/" + sub_file(name), sub_file(name));
  }
  return tree.root();
}

// libcudnn_cnn.so.<major> as a link to libcudnn_cnn.so.<major>.1.0, as a real install of that
// release names it: the version cushim reads from the file name.
void install_cnn_of_release_1_0(const temp_tree& tree) {
  std::string real_name = "libcudnn_cnn.so." + std::to_string(major) + ".1.0";
  tree.copy_file(tree_dir("cudnn_tree") + "/" + sub_file("cnn"), real_name);
  tree.symlink(real_name, sub_file("cnn"));
}

probe_output probe_with_cudnn(const std::string& cudnn_path, std::vector<std::string> args = {}) {
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = cudnn_path;
  call.args = std::move(args);
  return run_probe(call);
}

// "file|usable|preloaded|version|path|problem" for one sub-library.
std::string sub_line(const probe_output& out, const std::string& name) {
  for (const std::string& line : out.all("cudnn.sublibrary")) {
    if (line.rfind(sub_file(name) + "|", 0) == 0) return line;
  }
  return "<none>";
}

std::string version_text(int v) {
  return std::to_string(v / 10000) + "." + std::to_string(v % 10000 / 100) + "." + std::to_string(v % 100);
}

}  // namespace

TEST_CASE("a complete install: every sub-library beside the main one, found through its RUNPATH") {
  probe_output out = probe_with_cudnn(tree_dir("cudnn_tree"));
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.identity") == "cudnn_tree");
  REQUIRE(out.all("cudnn.sublibrary").size() == sub_names.size());
  std::string dir = tree_dir("cudnn_tree");
  CHECK(sub_line(out, "graph") ==
        sub_file("graph") + "|1|0|" + std::to_string(CUDNN_VERSION) + "|" + dir + "/" + sub_file("graph") + "|");
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|1|0|0|" + dir + "/" + sub_file("cnn") + "|");
  CHECK(out.text.find("    " + sub_file("graph") + ": OK (required), " + compiled_cudnn + ", " + dir + "/" +
                      sub_file("graph") + "\n") != std::string::npos);
}

TEST_CASE("without a RUNPATH cuDNN's own search would pick the system copy: the sibling is preloaded") {
  std::string dir = tree_dir("cudnn_tree_next_patch");
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  std::string next = std::to_string(CUDNN_VERSION + 1);
  CHECK(sub_line(out, "graph") == sub_file("graph") + "|1|1|" + next + "|" + dir + "/" + sub_file("graph") + "|");
  CHECK(sub_line(out, "ops") == sub_file("ops") + "|1|1|" + next + "|" + dir + "/" + sub_file("ops") + "|");
  CHECK(out.text.find(dir + "/" + sub_file("graph") +
                      " (preloaded by cushim: cuDNN's own search would not find this copy)") != std::string::npos);
}

TEST_CASE("a root sub-library of another version: cuDNN is refused, both versions named") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree_next_patch", "graph");
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  std::string real_graph = ldconfig_path_of(sub_file("graph"));
  CHECK(out.get("cudnn.code") == "override_failed");
  std::vector<attempt_line> attempts = attempts_of(out);
  REQUIRE(attempts.size() == 1);
  CHECK(attempts[0].outcome == "sublibrary_unusable");
  CHECK(attempts[0].detail == "cuDNN " + version_text(CUDNN_VERSION + 1) + "; " + real_graph + " is cuDNN " +
                                  compiled_cudnn + ", but the main library reports " + version_text(CUDNN_VERSION + 1) +
                                  ": parts of two installations");
  CHECK(out.get("cudnnGetVersion") == "0");
  CHECK(out.get("cudnnCreate") == std::to_string(CUDNN_STATUS_NOT_INITIALIZED));
}

TEST_CASE("an optional sub-library of another version is gated: its functions fall back, the rest work") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "cnn");
  install_cnn_of_release_1_0(tree);
  probe_output out = probe_with_cudnn(dir, {"--call-convolution"});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  std::string problem = dir + "/" + sub_file("cnn") + " is cuDNN " + std::to_string(major) + ".1.0, but " + dir + "/" +
                        sub_file("graph") + " is " + compiled_cudnn + ": sub-libraries of two installations";
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|0|0|" + std::to_string(major * 10000 + 100) + "|" + dir + "/" +
                                    sub_file("cnn") + "|" + problem);
  CHECK(out.get("cudnnConvolutionForward") == std::to_string(CUDNN_STATUS_NOT_INITIALIZED));
  CHECK(out.get("cudnnGetVersion") == std::to_string(CUDNN_VERSION));
  CHECK(out.text.find("  WARNING: cudnnConvolutionForward needs " + sub_file("cnn") +
                      ", which is unusable (see above); it returns CUDNN_STATUS_NOT_INITIALIZED") != std::string::npos);
  CHECK(out.text.find("cudnn.problem=sublibrary_unusable|0|cuDNN's sub-library " + sub_file("cnn") + " is unusable") !=
        std::string::npos);
}

TEST_CASE("a sub-library whose dependency is missing names the dependency, the file and the folders") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "cnn");
  tree.copy_file(tree_dir("cnn_needs_dependency") + "/" + sub_file("cnn"), sub_file("cnn"));
  probe_output out = probe_with_cudnn(dir, {"--call-convolution"});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  std::string line = sub_line(out, "cnn");
  CHECK(line.find(sub_file("cnn") + "|0|0|0|" + dir + "/" + sub_file("cnn") + "|" + dir + "/" + sub_file("cnn") +
                  " needs libfakedependency.so, which is not in any of: ld.so.cache: no entry, /lib/") == 0);
  CHECK(out.get("cudnnConvolutionForward") == std::to_string(CUDNN_STATUS_NOT_INITIALIZED));
}

TEST_CASE("an optional sub-library is checked on the first call into it, not at load") {
  probe_output out = probe_with_cudnn(tree_dir("cudnn_tree"), {"--convolution-first"});
  INFO(out.text);
  CHECK(out.get("first.cudnnGetVersion") == std::to_string(CUDNN_VERSION));
  CHECK(out.get("first.cnn_loaded") == "0");  // cuDNN is in use, its cnn library not yet loaded
  CHECK(out.get("first.cudnnConvolutionForward") == std::to_string(CUDNN_STATUS_SUCCESS));  // reached the fixture
  CHECK(out.get("then.cnn_loaded") == "1");
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|1|0|0|" + tree_dir("cudnn_tree") + "/" + sub_file("cnn") + "|");
}

TEST_CASE("a report made before the first call keeps the gate: the loader's refusal still gates the calls") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "cnn");
  tree.copy_file(tree_dir("cnn_undefined_symbol") + "/" + sub_file("cnn"), sub_file("cnn"));  // RTLD_NOW refuses it
  probe_output out = probe_with_cudnn(dir, {"--explain-first", "--call-convolution"});
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnnConvolutionForward") == std::to_string(CUDNN_STATUS_NOT_INITIALIZED));
  // The report made at the end, after the call: the refusal, named.
  const std::string cnn = dir + "/" + sub_file("cnn");
  std::string explanation = out.text.substr(out.text.find("--- explain"));
  CHECK(explanation.find("  WARNING: cuDNN's sub-library " + sub_file("cnn") +
                         " is unusable; the cuDNN functions it "
                         "serves return CUDNN_STATUS_NOT_INITIALIZED instead of letting cuDNN abort the process\n"
                         "    file: " +
                         cnn + "\n    why:  the system loader refused " + cnn + ": " + cnn +
                         ": undefined symbol: cushim_fixture_defined_nowhere\n") != std::string::npos);
  CHECK(explanation.find("  WARNING: cudnnConvolutionForward needs " + sub_file("cnn") +
                         ", which is unusable (see above); it returns CUDNN_STATUS_NOT_INITIALIZED") !=
        std::string::npos);
}

TEST_CASE("a first call into a sub-library that cannot load falls back, and the report says why") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "cnn");
  tree.copy_file(tree_dir("cnn_needs_dependency") + "/" + sub_file("cnn"), sub_file("cnn"));
  probe_output out = probe_with_cudnn(dir, {"--convolution-first"});
  INFO(out.text);
  CHECK(out.get("first.cudnnConvolutionForward") == std::to_string(CUDNN_STATUS_NOT_INITIALIZED));
  CHECK(out.get("then.cnn_loaded") == "0");
  CHECK(sub_line(out, "cnn")
            .find(sub_file("cnn") + "|0|0|0|" + dir + "/" + sub_file("cnn") + "|" + dir + "/" + sub_file("cnn") +
                  " needs libfakedependency.so, which is not in any of: ") == 0);
  CHECK(out.text.find("cudnn.problem=sublibrary_unusable|0|cuDNN's sub-library " + sub_file("cnn") + " is unusable") !=
        std::string::npos);
}

TEST_CASE("a sub-library that disagrees with the main library's version stays gated on its first call") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "cnn");
  // A root that gives no version (the fixture's heuristic library under graph's name), so only
  // the main library's cudnnGetVersion shows that cnn belongs to another release.
  tree.copy_file(tree_dir("cudnn_tree") + "/" + sub_file("heuristic"), sub_file("graph"));
  install_cnn_of_release_1_0(tree);
  probe_output out = probe_with_cudnn(dir, {"--convolution-first"});
  INFO(out.text);
  CHECK(out.get("first.cudnnGetVersion") == std::to_string(CUDNN_VERSION));
  CHECK(out.get("first.cudnnConvolutionForward") == std::to_string(CUDNN_STATUS_NOT_INITIALIZED));
  CHECK(out.get("then.cnn_loaded") == "0");
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|0|0|" + std::to_string(major * 10000 + 100) + "|" + dir + "/" +
                                    sub_file("cnn") + "|" + dir + "/" + sub_file("cnn") + " is cuDNN " +
                                    std::to_string(major) + ".1.0, but the main library reports " + compiled_cudnn +
                                    ": parts of two installations");
}

namespace {

// One sub-library file as a release names its real file (libcudnn_X.so.<major>.<minor>.<patch>),
// linked under the name cuDNN loads: the version cushim reads from the name.
void install_of_release(const temp_tree& tree, const std::string& from, const std::string& name, int version) {
  std::string real_name = "libcudnn_" + name + ".so." + version_text(version);
  tree.copy_file(from, real_name);
  tree.symlink(real_name, sub_file(name));
}

}  // namespace

TEST_CASE("a sub-library of a later release left beside cuDNN is found, named and version-checked") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree");
  install_of_release(tree, tree_dir("cudnn_tree") + "/" + sub_file("heuristic"), "engines_tensor_ir", 92300);
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  std::string file = dir + "/" + sub_file("engines_tensor_ir");
  std::string problem = file + " is cuDNN 9.23.0, but " + dir + "/" + sub_file("graph") + " is " + compiled_cudnn +
                        ": sub-libraries of two installations";
  CHECK(sub_line(out, "engines_tensor_ir") == sub_file("engines_tensor_ir") + "|0|0|92300|" + file + "|" + problem);
  CHECK(out.all("cudnn.unknown_sublibrary").empty());  // named in cushim's list, with the release that brought it
  CHECK(out.text.find("  WARNING: cuDNN's sub-library " + sub_file("engines_tensor_ir") +
                      " is unusable; the operations that need its engines fail when they run "
                      "(CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED or CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH)\n"
                      "    file: " +
                      file + "\n    why:  " + problem + "\n") != std::string::npos);
  CHECK(sub_line(out, "ext") == "<none>");  // a later release's sub-library that is nowhere is not expected of this one
}

TEST_CASE("the later releases' sub-libraries are expected once the root says it is such a release") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "graph");
  install_of_release(tree, tree_dir("cudnn_tree") + "/" + sub_file("graph"), "graph", 92300);
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  for (const std::string name : {"engines_tensor_ir", "ext"}) {
    std::string line = sub_line(out, name);
    CHECK(line.find(sub_file(name) + "|0|0|0||" + sub_file(name) + " is not beside " + dir + "/" + cudnn_file +
                    " and cuDNN's own search would not find it (looked in: " + dir + ", ") == 0);
  }
}

TEST_CASE("each later sub-library is expected from the release that brought it on") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "graph");
  install_of_release(tree, tree_dir("cudnn_tree") + "/" + sub_file("graph"), "graph", 92100);
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  CHECK(sub_line(out, "engines_tensor_ir")
            .find(sub_file("engines_tensor_ir") + "|0|0|0||" + sub_file("engines_tensor_ir") + " is not beside ") == 0);
  CHECK(sub_line(out, "ext") == "<none>");  // 9.21 and 9.22 are not known to have it
}

TEST_CASE("a sub-library cushim does not know, beside the main library, is listed and checked") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree");
  tree.copy_file(tree_dir("cudnn_tree") + "/" + sub_file("heuristic"), sub_file("engines_future"));
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.all("cudnn.unknown_sublibrary") == std::vector<std::string>{sub_file("engines_future")});
  CHECK(sub_line(out, "engines_future") ==
        sub_file("engines_future") + "|1|0|0|" + dir + "/" + sub_file("engines_future") + "|");
  CHECK(out.text.find("    " + sub_file("engines_future") + ": OK, " + dir + "/" + sub_file("engines_future") +
                      " (not in cushim's list: found beside the main library)\n") != std::string::npos);
}

TEST_CASE("a broken sub-library beside the main library, passed over for the system's copy, is named") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree", "ops");
  std::string broken = tree.write_file(sub_file("ops"), "left by an interrupted copy\n");
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  // glibc stops at the broken file; cuDNN then tries the unversioned name, which the cache holds.
  std::string system_ops = ldconfig_path_of("libcudnn_ops.so");
  CHECK(sub_line(out, "ops") == sub_file("ops") + "|1|0|" + std::to_string(CUDNN_VERSION) + "|" + system_ops + "|");
  std::string why =
      "not a shared library: not an ELF file: it starts with 6c 65 66 74, not 7f 45 4c 46"  // "left"
      "; the system loader stops at it";
  CHECK(out.all("cudnn.shadowing") == std::vector<std::string>{sub_file("ops") + "|" + broken + "|0|" + why});
  CHECK(out.text.find("      met first: " + broken + " (unusable, " + why + ")\n") != std::string::npos);
  CHECK(out.text.find("  WARNING: cuDNN's search for " + sub_file("ops") +
                      " meets a copy it cannot use\n    file: " + broken + "\n    why:  " + why + "; cuDNN uses " +
                      system_ops + " instead\n    fix:  remove " + broken + ", or replace it with the " +
                      sub_file("ops") + " of the cuDNN in use\n") != std::string::npos);
}

TEST_CASE("cuDNN 9 tries its own release's file name first: a broken one is named, the next name used") {
  temp_tree tree;
  std::string dir = copy_tree(tree, "cudnn_tree");
  std::string real_main = "libcudnn.so." + version_text(CUDNN_VERSION);
  tree.copy_file(tree_dir("cudnn_tree") + "/" + cudnn_file, real_main);
  std::filesystem::remove(tree.path(cudnn_file));
  tree.symlink(real_main, cudnn_file);
  std::string broken = tree.write_file("libcudnn_cnn.so." + version_text(CUDNN_VERSION), "");
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|1|0|0|" + dir + "/" + sub_file("cnn") + "|");
  CHECK(out.all("cudnn.shadowing") ==
        std::vector<std::string>{sub_file("cnn") + "|" + broken +
                                 "|0|not a shared library: file is empty; the system loader stops at it"});
}

TEST_CASE("cuDNN's own search would take another release's copy: the one beside is preloaded, the other named") {
  std::string dir = tree_dir("cudnn_tree_next_patch");  // no RUNPATH: cuDNN's search takes the system's copies
  probe_output out = probe_with_cudnn(dir);
  INFO(out.text);
  std::string system_graph = ldconfig_path_of(sub_file("graph"));
  CHECK(out.get("cudnn.code") == "ok");
  std::string shadowing = sub_file("graph") + "|" + system_graph + "|1|cuDNN " + compiled_cudnn;
  CHECK(out.all("cudnn.shadowing").front() == shadowing);
  CHECK(out.text.find("  WARNING: cuDNN's own search for " + sub_file("graph") +
                      " would take a copy of another release\n    file: " + system_graph + "\n    why:  it is cuDNN " +
                      compiled_cudnn + " and the copy in use, " + dir + "/" + sub_file("graph") + ", is cuDNN " +
                      version_text(CUDNN_VERSION + 1) +
                      "; cushim preloads the copy in use, a program without cushim mixes two installations "
                      "(CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH)\n") != std::string::npos);
  // cnn says no version: the system's copy is another build all the same, as its size shows.
  std::string system_cnn = ldconfig_path_of(sub_file("cnn"));
  CHECK(sub_line(out, "cnn") == sub_file("cnn") + "|1|1|0|" + dir + "/" + sub_file("cnn") + "|");
  CHECK(out.text.find("      met first: " + system_cnn +
                      " (another release, another build (its file does not say which release))\n") !=
        std::string::npos);
  CHECK(out.text.find("    why:  it is another build (its file does not say which release) and the copy in use, " +
                      dir + "/" + sub_file("cnn") + ", is of the main library's install; cushim preloads") !=
        std::string::npos);
}

TEST_CASE("the main library's missing dependency is named, not just 'cannot open'") {
  std::string path = tree_dir("cudnn_needs_dependency") + "/" + cudnn_file;
  probe_output out = probe_with_cudnn(path);
  INFO(out.text);
  std::vector<attempt_line> attempts = attempts_of(out);
  REQUIRE(attempts.size() == 1);
  CHECK(attempts[0].outcome == "missing_dependency");
  CHECK(attempts[0].detail.find(path +
                                " needs libfakedependency.so, which is not in any of: ld.so.cache: no entry, ") == 0);
  CHECK(out.get("cudnn.code") == "override_failed");
}

namespace {}  // namespace

TEST_CASE("files that are not a library for this process are refused before the loader sees them") {
  temp_tree tree;
  std::string i386 = tree.write_file("i386/" + cudnn_file, elf32_i386());
  std::string text = tree.write_file("text/" + cudnn_file, "this is not a library\n");
  std::string empty = tree.write_file("empty/" + cudnn_file, "");
  std::string truncated = tree.write_file("truncated/" + cudnn_file, elf32_i386().substr(0, 40));
  probe_call call;
  call.args = {"--search-dir", tree.path("i386"),  "--search-dir", tree.path("text"),
               "--search-dir", tree.path("empty"), "--search-dir", tree.path("truncated")};
  probe_output out = run_probe(call);
  INFO(out.text);
  std::vector<attempt_line> attempts = attempts_of(out);
  REQUIRE(attempts.size() >= 4);
  CHECK(attempts[0].outcome == "wrong_architecture");
  CHECK(attempts[0].detail == "a 32-bit i386 library; this process is 64-bit x86-64");
  CHECK(attempts[1].outcome == "bad_format");
  CHECK(attempts[1].detail.rfind("not a shared library: ", 0) == 0);
  CHECK(attempts[2].outcome == "bad_format");
  CHECK(attempts[3].outcome == "bad_format");
  CHECK(attempts[3].detail.rfind("not a shared library: ", 0) == 0);
  CHECK(out.get("cudnn.code") == "ok");  // the real cuDNN, further down the search
}

TEST_CASE("the toolkit's stub libcuda is never taken for the driver") {
  temp_tree tree;
  std::string stub = tree.copy_file(std::string(CUSHIM_FIXTURE_DIR) + "/cudart_good/" + CUSHIM_CUDART_FILE,
                                    "cuda/lib64/stubs/libcuda.so.1");
  probe_call call;
  call.env["LD_LIBRARY_PATH"] = tree.path("cuda/lib64/stubs");
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.text.find("NVIDIA driver: not found\n    LD_LIBRARY_PATH[0]: " + stub +
                      " -> not_the_library (the CUDA toolkit's link-time stub, not the driver: remove its stubs "
                      "folder from LD_LIBRARY_PATH)\n") != std::string::npos);
}

TEST_CASE("cuDNN built for another CUDA major than the runtime is reported") {
  probe_output out = probe_with_cudnn(tree_dir("cudnn_other_cuda"));
  INFO(out.text);
  int other = CUDART_VERSION / 1000 - 1, ours = CUDART_VERSION / 1000;
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.text.find("cudnn.problem=version_mismatch|0|this cuDNN was built for CUDA " + std::to_string(other) +
                      ", but the program was compiled for CUDA " + std::to_string(ours)) != std::string::npos);
  CHECK(out.text.find("WARNING: cuDNN was built for CUDA " + std::to_string(other) +
                      ", but the CUDA runtime in use is " + std::to_string(ours) + ".") != std::string::npos);
}

TEST_CASE("a copy already loaded by someone else wins over the override, and both paths are named") {
  std::string loaded = tree_dir("cudnn_tree") + "/" + cudnn_file;
  std::string wanted = fixture("cudnn_good");
  probe_call call;
  preload(call, loaded);
  call.env["CUSHIM_CUDNN_PATH"] = wanted;
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.found_by") == "already loaded in this process");
  CHECK(out.get("cudnn.path") == loaded);
  CHECK(out.text.find("cudnn.problem=ok|0|CUSHIM_CUDNN_PATH names " + wanted +
                      ", but another copy is already loaded in this process; cushim uses that one") !=
        std::string::npos);
}

TEST_CASE("copies the search did not reach, and other majors beside them, are listed without loading them") {
  temp_tree tree;
  std::string first = copy_fixture_folder(tree, "cudnn_tree", "first") + "/" + cudnn_file;
  std::string second = copy_fixture_folder(tree, "cudnn_tree", "second") + "/" + cudnn_file;
  int other_major = major == 9 ? 8 : 9;
  std::string old = tree.write_file("second/libcudnn.so." + std::to_string(other_major), "never read\n");
  probe_call call;
  call.args = {"--search-dir", tree.path("first"), "--search-dir", tree.path("second")};
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.path") == first);
  CHECK(joined(out.all("cudnn.other")) ==
        joined({"options.search_dirs[1]|" + second + "|shadowed", "ld.so.cache|" + real_cudnn() + "|shadowed",
                "options.search_dirs[1]|" + old + "|other_major"}));
  CHECK(out.text.find("  other copies seen (not loaded):\n    options.search_dirs[1]: " + second + " -> shadowed\n") !=
        std::string::npos);
}

TEST_CASE("a log callback may call explain() while the library it reports on is loading") {
  probe_call call;
  call.args = {"--explain-from-log"};
  probe_output out = run_probe(call);  // a deadlock would end in the probe's timeout
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudart.code") == "ok");
}

TEST_CASE("a log callback may call back into cushim: a refused configure() and a missing function do not hang") {
  probe_call call;
  call.args = {"--reenter-from-log", "--configure-again"};  // the refusal is logged: explain() then loads the runtime
  probe_output refused = run_probe(call);                   // a deadlock would end in the probe's timeout
  INFO(refused.text);
  CHECK(refused.get("configure_again") == "refused");
  CHECK(refused.get("cudart.code") == "ok");

  call.args = {"--reenter-from-log", "--create-first"};  // cudnnCreate is missing: its log line calls explain()
  call.env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_no_create");
  probe_output missing = run_probe(call);
  INFO(missing.text);
  CHECK(missing.get("first.cudnnCreate") == std::to_string(int(CUDNN_STATUS_NOT_SUPPORTED)));
  CHECK(missing.get("cudart.code") == "ok");
}

TEST_CASE("a cuDNN call made from the log callback while cuDNN loads gets the fallback once, not for good") {
  probe_call call;
  call.args = {"--reenter-from-log"};
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("reentrant.cudnnGetErrorString") ==
        "cushim: this library is still being loaded on this thread (the call came from inside its load: the log "
        "callback, a library's constructor or a signal handler); call again once the load is done");
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("then.cudnnGetErrorString") == "CUDNN_STATUS_SUCCESS");  // the real cuDNN's text
}

TEST_CASE("a log callback that throws on the line about a missing function: the call returns its fallback") {
  probe_call call;
  call.args = {"--log-throws-on-missing"};
  call.env["CUSHIM_CUDNN_PATH"] = fixture("cudnn_no_create");
  probe_output out = run_probe(call);  // an exception through cudnnCreate would end the probe
  INFO(out.text);
  CHECK(out.get("cudnnCreate") == std::to_string(int(CUDNN_STATUS_NOT_SUPPORTED)));
  CHECK(out.text.find("\nNOTE: the log callback threw an exception (first on the line \"cushim: cuDNN: cudnnCreate "
                      "is not exported by " +
                      fixture("cudnn_no_create") +
                      "; calls to it return the 'not supported' fallback\"); cushim ignores what it throws and goes "
                      "on\n") != std::string::npos);
}

TEST_CASE("a log callback that calls configure() on every line: each is refused, one note says so, nothing recurses") {
  probe_call call;
  call.args = {"--configure-from-log"};
  probe_output out = run_probe(call);  // endless recursion would end the probe with SIGSEGV
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  const std::string note = "\nNOTE: configure() was called after a library was loaded; the new options were ignored.";
  CHECK(out.text.find(note) != std::string::npos);
  CHECK(out.text.find(note) == out.text.rfind(note));
}
