// The search order, one rule at a time: each case puts the good fake cuDNN where a rule looks
// and where the next lower rule looks, runs cushim_probe in a fresh process with a clean
// environment, and checks which copy won; then removes the winner and checks the lower one wins.
// Also: the override is authoritative, bad candidates are reported and skipped, empty and
// relative entries (the current folder) are never used.
#include <cudnn.h>
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/probe.hpp"
#include "support/process.hpp"
#include "support/temp_tree.hpp"

using test_support::environment;
using test_support::key_values;
using test_support::temp_tree;

namespace {

using namespace test_support;

// One place a search rule looks, set up in a temp tree: the folder the library goes in and
// how the probe is pointed at it.
struct placement {
  std::string found_by;  // the rule cushim reports when the copy there wins
  std::string folder;    // relative to the tree
  void (*point)(probe_call&, const temp_tree&);
};

const placement search_dirs{"options.search_dirs[0]", "opt", [](probe_call& c, const temp_tree& t) {
                              c.args.insert(c.args.end(), {"--search-dir", t.path("opt")});
                            }};
const placement cushim_search_path{"CUSHIM_SEARCH_PATH[0]", "search_path", [](probe_call& c, const temp_tree& t) {
                                     c.env["CUSHIM_SEARCH_PATH"] = t.path("search_path");
                                   }};
// The probe links nothing unusual, so a copy of it runs from anywhere.
const placement executable_folder{"executable's folder", "bin", [](probe_call& c, const temp_tree& t) {
                                    c.program = t.copy_file(CUSHIM_PROBE, "bin/cushim_probe");
                                  }};
const placement cudnn_path{"CUDNN_PATH", "cudnn_path",
                           [](probe_call& c, const temp_tree& t) { c.env["CUDNN_PATH"] = t.path("cudnn_path"); }};
const placement cudnn_home{"CUDNN_HOME/lib64", "cudnn_home/lib64",
                           [](probe_call& c, const temp_tree& t) { c.env["CUDNN_HOME"] = t.path("cudnn_home"); }};
const placement cudnn_root_dir{"CUDNN_ROOT_DIR/lib", "cudnn_root/lib", [](probe_call& c, const temp_tree& t) {
                                 c.env["CUDNN_ROOT_DIR"] = t.path("cudnn_root");
                               }};
const placement cuda_path{"CUDA_PATH", "cuda_path",
                          [](probe_call& c, const temp_tree& t) { c.env["CUDA_PATH"] = t.path("cuda_path"); }};
const placement cuda_home{"CUDA_HOME/lib64", "cuda_home/lib64",
                          [](probe_call& c, const temp_tree& t) { c.env["CUDA_HOME"] = t.path("cuda_home"); }};
const placement conda_lib{"CONDA_PREFIX/lib", "conda/lib",
                          [](probe_call& c, const temp_tree& t) { c.env["CONDA_PREFIX"] = t.path("conda"); }};
const placement venv_pip{"VIRTUAL_ENV pip nvidia/cudnn", "venv/lib/python3.11/site-packages/nvidia/cudnn/lib",
                         [](probe_call& c, const temp_tree& t) { c.env["VIRTUAL_ENV"] = t.path("venv"); }};
const placement conda_pip{"CONDA_PREFIX pip nvidia/cudnn", "conda_pip/lib/python3.12/site-packages/nvidia/cudnn/lib",
                          [](probe_call& c, const temp_tree& t) { c.env["CONDA_PREFIX"] = t.path("conda_pip"); }};
const placement ld_library_path{"LD_LIBRARY_PATH[0]", "ld_library_path", [](probe_call& c, const temp_tree& t) {
                                  c.env["LD_LIBRARY_PATH"] = t.path("ld_library_path");
                                }};

// Both places hold the good fake: the higher one wins. Without it, the lower one wins.
void check_precedence(const placement& higher, const placement& lower) {
  temp_tree tree;
  probe_call call;
  higher.point(call, tree);
  lower.point(call, tree);
  std::string higher_copy = tree.copy_file(fixture("cudnn_good"), higher.folder + "/" + cudnn_file);
  std::string lower_copy = tree.copy_file(fixture("cudnn_good"), lower.folder + "/" + cudnn_file);

  probe_output both = run_probe(call);
  INFO("both copies present:\n" << both.text);
  CHECK(both.get("cudnn.code") == "ok");
  CHECK(both.get("cudnn.path") == higher_copy);
  CHECK(both.get("cudnn.found_by") == higher.found_by);
  CHECK(both.get("cudnn.identity") == "cudnn_good");
  CHECK(outcome_at(both, lower_copy) == "<not tried>");

  tree.remove(higher_copy);
  probe_output only_lower = run_probe(call);
  INFO("higher copy removed:\n" << only_lower.text);
  CHECK(only_lower.get("cudnn.code") == "ok");
  CHECK(only_lower.get("cudnn.path") == lower_copy);
  CHECK(only_lower.get("cudnn.found_by") == lower.found_by);
  CHECK(only_lower.get("cudnn.identity") == "cudnn_good");
  CHECK(outcome_at(only_lower, higher_copy) == "absent");  // still tried first
}

}  // namespace

TEST_CASE("clean environment: the real cuDNN comes from ld.so.cache") {
  REQUIRE(real_cudnn() != "");
  probe_output out = run_probe({});
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"executable's folder|" + probe_dir + "/" + cudnn_file + "|absent|",
                "ld.so.cache|" + real_cudnn() + "|loaded|cuDNN " + compiled_cudnn}));
  CHECK(out.all("cudnn.problem").empty());
}

TEST_CASE("CUSHIM_CUDNN_PATH: beats options.search_dirs, and is authoritative") {
  temp_tree tree;
  std::string override_copy = tree.copy_file(fixture("cudnn_good"), "override/" + cudnn_file);
  std::string search_copy = tree.copy_file(fixture("cudnn_good"), "opt/" + cudnn_file);
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = tree.path("override");
  call.args = {"--search-dir", tree.path("opt")};

  probe_output both = run_probe(call);
  INFO(both.text);
  CHECK(both.get("cudnn.path") == override_copy);
  CHECK(both.get("cudnn.found_by") == "CUSHIM_CUDNN_PATH");
  CHECK(both.get("cudnn.identity") == "cudnn_good");
  CHECK(joined(both.all("cudnn.attempt")) ==
        joined({"CUSHIM_CUDNN_PATH|" + override_copy + "|loaded|cuDNN " + compiled_cudnn}));

  // An empty override folder: no fallback to the search dir, nor to the real cuDNN in the cache.
  tree.remove(override_copy);
  probe_output empty = run_probe(call);
  INFO(empty.text);
  CHECK(empty.get("cudnn.code") == "override_failed");
  CHECK(empty.get("cudnn.path") == "");
  CHECK(joined(empty.all("cudnn.attempt")) == joined({"CUSHIM_CUDNN_PATH|" + override_copy + "|absent|"}));
  CHECK(joined(empty.all("cudnn.problem")) ==
        joined({"override_failed|1|cuDNN was not loaded from the explicit location CUSHIM_CUDNN_PATH names; cushim "
                "does not fall back to a search when one is given"}));
  CHECK(empty.get("cudnnGetVersion") == "0");
  CHECK(empty.get("cudnnCreate") == std::to_string(int(CUDNN_STATUS_NOT_INITIALIZED)));
}

TEST_CASE("CUSHIM_CUDNN_PATH naming a file loads exactly that file, whatever its name") {
  temp_tree tree;
  std::string renamed = tree.copy_file(fixture("cudnn_good"), "custom/my-cudnn.so");
  tree.copy_file(fixture("cudnn_good"), "custom/" + cudnn_file);
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = renamed;
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.path") == renamed);
  CHECK(out.get("cudnn.found_by") == "CUSHIM_CUDNN_PATH");
  CHECK(out.get("cudnn.identity") == "cudnn_good");
}

TEST_CASE("options.files[cudnn] beats CUSHIM_CUDNN_PATH") {
  temp_tree tree;
  std::string from_options = tree.copy_file(fixture("cudnn_good"), "options/" + cudnn_file);
  tree.copy_file(fixture("cudnn_good"), "env/" + cudnn_file);
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = tree.path("env");
  call.args = {"--cudnn-file", tree.path("options")};
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.path") == from_options);
  CHECK(out.get("cudnn.found_by") == "options.files[cudnn]");
  CHECK(out.all("cudnn.attempt").size() == 1);
}

TEST_CASE("an empty CUSHIM_CUDNN_PATH counts as unset") {
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = "";
  probe_output out = run_probe(call);
  INFO(out.text);
  check_real_cudnn_from_cache(out);
}

TEST_CASE("a copy already in the process is reused before options.search_dirs") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), "opt/" + cudnn_file);
  probe_call call;
  call.args = {"--search-dir", tree.path("opt")};
  preload(call, fixture("cudnn_good"));
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.path") == fixture("cudnn_good"));
  CHECK(out.get("cudnn.found_by") == "already loaded in this process");
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"already loaded in this process|" + fixture("cudnn_good") + "|reused|cuDNN " + compiled_cudnn}));
}

TEST_CASE("an unusable copy already in the process: already_loaded_mismatch, no second copy") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), "opt/" + cudnn_file);
  probe_call call;
  call.args = {"--search-dir", tree.path("opt")};
  preload(call, fixture("cudnn_wrong_major"));
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "already_loaded_mismatch");
  CHECK(out.get("cudnn.path") == "");
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"already loaded in this process|" + fixture("cudnn_wrong_major") +
                "|wrong_version|cuDNN 8.9.7; this program was compiled for major " + std::to_string(CUDNN_MAJOR)}));
  CHECK(joined(out.all("cudnn.problem")) ==
        joined({"already_loaded_mismatch|1|the cuDNN already loaded in this process is unusable"}));
  CHECK(out.text.find("    why:  cuDNN 8.9.7; this program was compiled for major " + std::to_string(CUDNN_MAJOR) +
                      "; loaded through LD_PRELOAD\n") != std::string::npos);
}

TEST_CASE("options.search_dirs beats CUSHIM_SEARCH_PATH") { check_precedence(search_dirs, cushim_search_path); }
TEST_CASE("CUSHIM_SEARCH_PATH beats the executable's folder") {
  check_precedence(cushim_search_path, executable_folder);
}
TEST_CASE("the executable's folder beats CUDNN_PATH") { check_precedence(executable_folder, cudnn_path); }
TEST_CASE("CUDNN_PATH beats CUDNN_HOME") { check_precedence(cudnn_path, cudnn_home); }
TEST_CASE("CUDNN_HOME beats CUDNN_ROOT_DIR") { check_precedence(cudnn_home, cudnn_root_dir); }
TEST_CASE("CUDNN_ROOT_DIR beats CUDA_PATH") { check_precedence(cudnn_root_dir, cuda_path); }
TEST_CASE("CUDA_PATH beats CUDA_HOME") { check_precedence(cuda_path, cuda_home); }
TEST_CASE("CUDA_HOME beats CONDA_PREFIX/lib") { check_precedence(cuda_home, conda_lib); }
TEST_CASE("CONDA_PREFIX/lib beats the VIRTUAL_ENV pip layout") { check_precedence(conda_lib, venv_pip); }
TEST_CASE("the VIRTUAL_ENV pip layout beats the CONDA_PREFIX pip layout") { check_precedence(venv_pip, conda_pip); }
TEST_CASE("the CONDA_PREFIX pip layout beats LD_LIBRARY_PATH") { check_precedence(conda_pip, ld_library_path); }

TEST_CASE("LD_LIBRARY_PATH beats ld.so.cache") {
  temp_tree tree;
  std::string copy = tree.copy_file(fixture("cudnn_good"), "ld_library_path/" + cudnn_file);
  probe_call call;
  ld_library_path.point(call, tree);
  probe_output with_copy = run_probe(call);
  INFO(with_copy.text);
  CHECK(with_copy.get("cudnn.path") == copy);
  CHECK(with_copy.get("cudnn.found_by") == "LD_LIBRARY_PATH[0]");
  CHECK(with_copy.get("cudnn.identity") == "cudnn_good");

  tree.remove(copy);
  probe_output without = run_probe(call);
  INFO(without.text);
  check_real_cudnn_from_cache(without);
  CHECK(outcome_at(without, copy) == "absent");
}

TEST_CASE("an install root is searched as root, root/lib64, then root/lib") {
  temp_tree tree;
  std::string in_root = tree.copy_file(fixture("cudnn_good"), "root/" + cudnn_file);
  std::string in_lib64 = tree.copy_file(fixture("cudnn_good"), "root/lib64/" + cudnn_file);
  std::string in_lib = tree.copy_file(fixture("cudnn_good"), "root/lib/" + cudnn_file);
  probe_call call;
  call.env["CUDNN_PATH"] = tree.path("root");
  for (auto [expected_path, expected_rule] : {std::pair{in_root, "CUDNN_PATH"}, std::pair{in_lib64, "CUDNN_PATH/lib64"},
                                              std::pair{in_lib, "CUDNN_PATH/lib"}}) {
    probe_output out = run_probe(call);
    INFO(out.text);
    CHECK(out.get("cudnn.path") == expected_path);
    CHECK(out.get("cudnn.found_by") == expected_rule);
    tree.remove(expected_path);
  }
}

TEST_CASE("a missing CUDNN_PATH folder is reported as folder_absent") {
  temp_tree tree;
  std::string missing = tree.path("missing");
  probe_call call;
  call.env["CUDNN_PATH"] = missing;
  probe_output out = run_probe(call);
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"executable's folder|" + probe_dir + "/" + cudnn_file + "|absent|",
                "CUDNN_PATH|" + missing + "/" + cudnn_file + "|folder_absent|",
                "CUDNN_PATH/lib64|" + missing + "/lib64/" + cudnn_file + "|folder_absent|",
                "CUDNN_PATH/lib|" + missing + "/lib/" + cudnn_file + "|folder_absent|",
                "ld.so.cache|" + real_cudnn() + "|loaded|cuDNN " + compiled_cudnn}));
}

TEST_CASE("--no-env ignores every variable cushim reads") {
  temp_tree tree;
  std::string copy = tree.copy_file(fixture("cudnn_good"), "everywhere/" + cudnn_file);
  tree.copy_file(fixture("cudnn_good"), "everywhere/lib/" + cudnn_file);
  tree.copy_file(fixture("cudnn_good"), "everywhere/lib/python3.11/site-packages/nvidia/cudnn/lib/" + cudnn_file);
  probe_call call;
  call.args = {"--no-env"};
  for (const char* variable : {"CUSHIM_CUDNN_PATH", "CUSHIM_SEARCH_PATH", "CUDNN_PATH", "CUDNN_HOME", "CUDNN_ROOT_DIR",
                               "CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX", "VIRTUAL_ENV"}) {
    call.env[variable] = tree.path("everywhere");
  }
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("configure") == "accepted");
  check_real_cudnn_from_cache(out);
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"executable's folder|" + probe_dir + "/" + cudnn_file + "|absent|",
                "ld.so.cache|" + real_cudnn() + "|loaded|cuDNN " + compiled_cudnn}));

  // options.search_dirs still count: they are not the environment.
  call.args.insert(call.args.end(), {"--search-dir", tree.path("everywhere")});
  probe_output with_dir = run_probe(call);
  INFO(with_dir.text);
  CHECK(with_dir.get("cudnn.path") == copy);
  CHECK(with_dir.get("cudnn.found_by") == "options.search_dirs[0]");

  // LD_LIBRARY_PATH is the system loader's own variable: read even then (docs/checks.md, "What is checked, in order").
  call.args = {"--no-env"};
  call.env["LD_LIBRARY_PATH"] = tree.path("everywhere");
  probe_output with_ld_path = run_probe(call);
  INFO(with_ld_path.text);
  CHECK(with_ld_path.get("cudnn.path") == copy);
  CHECK(with_ld_path.get("cudnn.found_by") == "LD_LIBRARY_PATH[0]");
}

TEST_CASE("empty and relative entries are reported and skipped, never read as the current folder") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), cudnn_file);           // what "" and "." would find
  tree.copy_file(fixture("cudnn_good"), "lib/" + cudnn_file);  // what "lib" would find
  probe_call call;
  call.working_dir = tree.root();
  call.args = {"--search-dir", "lib", "--search-dir", ""};
  call.env["CUSHIM_SEARCH_PATH"] = "::lib:.";
  call.env["LD_LIBRARY_PATH"] = "lib::.";
  probe_output out = run_probe(call);
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  std::string empty = "skipped_empty|an empty entry means the current folder to the system loader; never searched";
  std::string relative = "skipped_relative|relative entries depend on the current folder; never searched";
  CHECK(
      joined(out.all("cudnn.attempt")) ==
      joined({"options.search_dirs[0]|lib|" + relative, "options.search_dirs[1]||" + empty,
              "CUSHIM_SEARCH_PATH[0]||" + empty, "CUSHIM_SEARCH_PATH[1]||" + empty,
              "CUSHIM_SEARCH_PATH[2]|lib|" + relative, "CUSHIM_SEARCH_PATH[3]|.|" + relative,
              "executable's folder|" + probe_dir + "/" + cudnn_file + "|absent|", "LD_LIBRARY_PATH[0]|lib|" + relative,
              "LD_LIBRARY_PATH[1]||" + empty, "LD_LIBRARY_PATH[2]|.|" + relative,
              "ld.so.cache|" + real_cudnn() + "|loaded|cuDNN " + compiled_cudnn}));

  // One warning per skipped entry, naming it; the library is still usable.
  std::vector<std::string> problems = out.all("cudnn.problem");
  REQUIRE(problems.size() == 9);
  CHECK(problems[0] == "ok|0|options.search_dirs[0] has a relative entry 'lib', which cushim skipped");
  CHECK(problems[1] == "ok|0|options.search_dirs[1] has an empty entry, which cushim skipped");
  problems.erase(problems.begin(), problems.begin() + 2);
  CHECK(problems[0] == "ok|0|CUSHIM_SEARCH_PATH[0] has an empty entry, which cushim skipped");
  CHECK(problems[1] == "ok|0|CUSHIM_SEARCH_PATH[1] has an empty entry, which cushim skipped");
  CHECK(problems[2] == "ok|0|CUSHIM_SEARCH_PATH[2] has a relative entry 'lib', which cushim skipped");
  CHECK(problems[3] == "ok|0|CUSHIM_SEARCH_PATH[3] has a relative entry '.', which cushim skipped");
  CHECK(problems[4] == "ok|0|LD_LIBRARY_PATH[0] has a relative entry 'lib', which cushim skipped");
  CHECK(problems[5] == "ok|0|LD_LIBRARY_PATH[1] has an empty entry, which cushim skipped");
  CHECK(problems[6] == "ok|0|LD_LIBRARY_PATH[2] has a relative entry '.', which cushim skipped");
}

TEST_CASE("a relative CUSHIM_CUDNN_PATH is refused, not resolved against the current folder") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), "lib/" + cudnn_file);
  probe_call call;
  call.working_dir = tree.root();
  call.env["CUSHIM_CUDNN_PATH"] = "lib";
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "override_failed");
  CHECK(
      joined(out.all("cudnn.attempt")) ==
      joined({"CUSHIM_CUDNN_PATH|lib|skipped_relative|relative entries depend on the current folder; never searched"}));
  CHECK_FALSE(out.has("cudnn.identity"));
}

TEST_CASE("a library in the current folder is never loaded") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), cudnn_file);
  probe_call call;
  call.working_dir = tree.root();
  probe_output out = run_probe(call);
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  CHECK(outcome_at(out, tree.path(cudnn_file)) == "<not tried>");
}

// For cushim inside the executable, dladdr() names argv[0]; a bare argv[0] ("cushim_probe", as a
// shell gives a program found through PATH) must not be made absolute against the current folder.
TEST_CASE("started by bare name, a program never loads from the current folder") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), cudnn_file);
  tree.make_dirs("cushim_probe");  // e.g. a source checkout named like the program
  probe_call call;
  call.argv0 = "cushim_probe";
  call.working_dir = tree.root();
  probe_output out = run_probe(call);
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  CHECK(outcome_at(out, tree.path(cudnn_file)) == "<not tried>");
}

TEST_CASE("rejected candidates are reported with the reason, and the next one wins") {
  temp_tree tree;
  std::vector<std::string> dirs;
  auto folder = [&](const std::string& name) {
    dirs.push_back(tree.path(name));
    return name + "/" + cudnn_file;
  };
  std::string wrong_major = tree.copy_file(fixture("cudnn_wrong_major"), folder("wrong_major"));
  std::string old_minor = tree.copy_file(fixture("cudnn_old_minor"), folder("old_minor"));
  std::string no_version = tree.copy_file(fixture("cudnn_no_version"), folder("no_version"));
  std::string text = tree.copy_file(std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_text_file/" + cudnn_file, folder("text"));
  std::string fifo = tree.make_fifo(folder("fifo"));  // opening it would block: it must never be opened
  std::string a_folder = tree.make_dirs(folder("folder"));
  std::string loop = tree.symlink("other", folder("loop"));
  tree.symlink(cudnn_file, "loop/other");
  std::string missing = tree.path(folder("missing"));
  std::string good = tree.copy_file(fixture("cudnn_good"), folder("good"));
  std::string search_path;
  for (const std::string& d : dirs) search_path += (search_path.empty() ? "" : ":") + d;

  probe_call call;
  call.env["CUSHIM_SEARCH_PATH"] = search_path;
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == good);
  CHECK(out.get("cudnn.found_by") == "CUSHIM_SEARCH_PATH[8]");
  CHECK(out.get("cudnn.identity") == "cudnn_good");
  CHECK(out.all("cudnn.problem").empty());
  auto rule = [](int i) { return "CUSHIM_SEARCH_PATH[" + std::to_string(i) + "]|"; };
  CHECK(
      joined(out.all("cudnn.attempt")) ==
      joined(
          {rule(0) + wrong_major + "|wrong_version|cuDNN 8.9.7; this program was compiled for major " +
               std::to_string(CUDNN_MAJOR),
           rule(1) + old_minor + "|wrong_version|cuDNN 9.0.0; older than the headers this program was compiled with (" +
               compiled_cudnn + ")",
           rule(2) + no_version + "|not_the_library|does not export cudnnGetVersion, so it is not cuDNN",
           rule(3) + text +
               "|bad_format|not a shared library: not an ELF file: it starts with 74 68 69 73, not 7f 45 4c 46",
           rule(4) + fifo + "|not_a_file|not a regular file (FIFO, device or socket)",
           rule(5) + a_folder + "|not_a_file|a folder, not a file", rule(6) + loop + "|not_a_file|symbolic link loop",
           rule(7) + missing + "|folder_absent|", rule(8) + good + "|loaded|cuDNN " + compiled_cudnn}));
}

TEST_CASE("an older minor is accepted with --policy same_major, with a warning") {
  temp_tree tree;
  std::string old_minor = copy_fixture_folder(tree, "cudnn_old_minor", "old") + "/" + cudnn_file;
  probe_call call;
  call.args = {"--search-dir", tree.path("old"), "--policy", "same_major"};
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == old_minor);
  CHECK(out.get("cudnn.identity") == "cudnn_old_minor");
  CHECK(out.get("cudnn.version") == "90000");
  CHECK(joined(out.all("cudnn.problem")) ==
        joined({"version_mismatch|0|cuDNN 9.0.0 is older than the headers this program was compiled with (" +
                compiled_cudnn + ")"}));

  // The default policy refuses the same file and goes on to the real cuDNN.
  call.args = {"--search-dir", tree.path("old")};
  probe_output strict = run_probe(call);
  INFO(strict.text);
  check_real_cudnn_from_cache(strict);
  CHECK(outcome_at(strict, old_minor) == "wrong_version");
}

TEST_CASE("a text file as the override: override_failed, refused before the loader sees it") {
  std::string text = std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_text_file/" + cudnn_file;
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_text_file";
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "override_failed");
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"CUSHIM_CUDNN_PATH|" + text +
                "|bad_format|not a shared library: not an ELF file: it starts with 74 68 69 73, not 7f 45 4c 46"}));
  CHECK(out.get("cudnnGetVersion") == "0");
}

TEST_CASE("configure() after loading is refused and explain() says so") {
  temp_tree tree;
  tree.copy_file(fixture("cudnn_good"), "opt/" + cudnn_file);
  probe_call call;
  call.args = {"--configure-late", "--search-dir", tree.path("opt")};
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("configure") == "refused");
  check_real_cudnn_from_cache(out);  // the late search dir was not used
  CHECK(out.rest.find("\nNOTE: configure() was called after a library was loaded; the new options were ignored. Call "
                      "it before the first cudnn*/cuda* call, available(), status_of() or explain()\n") !=
        std::string::npos);
}

TEST_CASE("probe_in_child: a copy that crashes, aborts, hangs or exits in a child is named and passed over") {
  const std::string version_function = "cudnnGetVersion";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"crashing_segv", "crashed with SIGSEGV in " + version_function},
      {"crashing_abort", "crashed with SIGABRT in " + version_function},
      {"crashing_loop", "did not finish in 4000 ms in " + version_function},
      {"crashing_constructor_exit", "ended the process (exit status 3) while loading"}};
  // Also with the host's own crash handlers installed: the child ends by the signal all the same.
  for (bool crash_handler : {false, true}) {
    for (const auto& [folder, how] : cases) {
      CAPTURE(folder);
      CAPTURE(crash_handler);
      probe_call call;
      if (crash_handler) call.args = {"--crash-handler"};
      call.env["CUSHIM_SEARCH_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/" + folder;
      call.env["CUSHIM_PROBE_IN_CHILD"] = "1";
      call.env["CUSHIM_PROBE_TIMEOUT_MS"] =
          "4000";  // also the limit for the real copies after it, loaded in a child on a busy machine
      probe_output out = run_probe(call);
      INFO(out.text);
      check_real_cudnn_from_cache(out);  // the search went on to the real cuDNN
      const std::string detail = how + ", in a child process (probe_in_child); never loaded in this one";
      CHECK(out.all("cudnn.attempt").at(0) == "CUSHIM_SEARCH_PATH[0]|" + fixture(folder) + "|crashed|" + detail);
      CHECK(joined(out.all("cudnn.problem")) == joined({"ok|0|a copy of cuDNN that CUSHIM_SEARCH_PATH[0] found "
                                                        "crashed, ended the process or hung when loaded"}));
    }
  }
}

TEST_CASE("probe_in_child: a host that ignores SIGCHLD or reaps every child still learns how each child ended") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"crashing_segv", "crashed with SIGSEGV in cudnnGetVersion"},
      {"crashing_abort", "crashed with SIGABRT in cudnnGetVersion"},
      {"crashing_constructor_exit", "ended the process (exit status 3) while loading"}};
  for (const char* sigchld : {"ignore", "reap"}) {
    for (const auto& [folder, how] : cases) {
      CAPTURE(sigchld);
      CAPTURE(folder);
      probe_call call;
      call.args = {"--sigchld", sigchld};
      call.env["CUSHIM_SEARCH_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/" + folder;
      call.env["CUSHIM_PROBE_IN_CHILD"] = "1";
      call.env["CUSHIM_PROBE_TIMEOUT_MS"] = "4000";
      probe_output out = run_probe(call);
      INFO(out.text);
      check_real_cudnn_from_cache(out);  // its child ended with "done" and exit 0, whoever reaped it
      CHECK(out.all("cudnn.attempt").at(0) == "CUSHIM_SEARCH_PATH[0]|" + fixture(folder) + "|crashed|" + how +
                                                  ", in a child process (probe_in_child); never loaded in this one");
    }
  }
}

TEST_CASE("probe_in_child: a child that is done at once is not waited for while a helper it started holds its pipe") {
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = fixture("crashing_grandchild");  // its constructor leaves a helper process
  call.env["CUSHIM_PROBE_IN_CHILD"] = "1";
  call.env["CUSHIM_PROBE_TIMEOUT_MS"] = "60000";  // longer than run_probe waits
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.path") == fixture("crashing_grandchild"));
}

TEST_CASE("a candidate replaced between cushim's check and its load, by a FIFO or a cut copy, is refused, not loaded") {
  for (const char* replacement : {"fifo", "cut"}) {
    CAPTURE(replacement);
    temp_tree tree;
    // Its constructor, run in the probe child, renames FAKE_SWAP_IN over its own file.
    std::string swapped = tree.copy_file(fixture("crashing_swap_on_load"), "lib/" + cudnn_file);
    std::string in = std::string(replacement) == "fifo" ? tree.make_fifo("replacement")
                                                        : tree.copy_file(real_cudnn(), "replacement");
    if (std::string(replacement) == "cut") std::filesystem::resize_file(in, 8192);  // its headers, not its segments
    probe_call call;
    call.env["CUSHIM_SEARCH_PATH"] = tree.path("lib");
    call.env["FAKE_SWAP_IN"] = in;
    call.env["CUSHIM_PROBE_IN_CHILD"] = "1";
    call.env["CUSHIM_PROBE_TIMEOUT_MS"] = "4000";
    probe_output out = run_probe(call);  // a dlopen of the FIFO would never return
    INFO(out.text);
    check_real_cudnn_from_cache(out);
    CHECK(out.all("cudnn.attempt").at(0) ==
          "CUSHIM_SEARCH_PATH[0]|" + swapped + "|load_failed|changed between cushim's check and its load: " +
              (std::string(replacement) == "fifo" ? "it is now not a regular file (FIFO, device or socket)"
                                                  : "another file is at its path now, or it was rewritten") +
              "; not loaded");
  }
}

// A framework loaded cuDNN of an older minor than the headers (PyTorch's wheel, say): refused,
// with both versions, what brought it in, what same_major would allow and what it would cost.
TEST_CASE("an older minor already in the process: both versions, the module that loaded it, and same_major's price") {
  const std::string old_cudnn = std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_old_minor/" + cudnn_file;
  const std::string framework = std::string(CUSHIM_FIXTURE_DIR) + "/framework/libfakeframework.so";
  const std::string older = std::to_string(CUDNN_MAJOR) + ".0.0";
  probe_call call;
  call.args = {"--preload", framework};  // dlopen()ed before cushim starts, as a framework's own
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "already_loaded_mismatch");
  const std::string refused =
      "cuDNN " + older + "; older than the headers this program was compiled with (" + compiled_cudnn + ")";
  CHECK(joined(out.all("cudnn.attempt")) ==
        joined({"already loaded in this process|" + old_cudnn + "|wrong_version|" + refused}));
  CHECK(joined(out.all("cudnn.problem")) ==
        joined({"already_loaded_mismatch|1|the cuDNN " + older + " already loaded in this process is older than the " +
                compiled_cudnn + " this program was compiled with"}));
  const std::string text = out.text.substr(out.text.find("--- explain"));
  CHECK(text.find("    why:  " + refused + "; loaded as a dependency of " + framework +
                  "; cushim will not load a second copy next to it (two copies of one library in a process break "
                  "both)\n") != std::string::npos);
  CHECK(text.find("    fix:  version_policy::same_major accepts it: cushim then uses this " + older +
                  ", and each function added after " + older +
                  " returns CUDNN_STATUS_NOT_SUPPORTED and is named in the report. Or make what loads it load cuDNN " +
                  compiled_cudnn + " or newer (for a pip wheel: upgrade it), or build this program with the " + older +
                  " headers\n") != std::string::npos);

  call.args = {"--preload", framework, "--policy", "same_major"};  // what the fix offers: accepted, with a warning
  probe_output relaxed = run_probe(call);
  CHECK(relaxed.get("cudnn.code") == "ok");
  CHECK(relaxed.get("cudnn.path") == old_cudnn);

  temp_tree tree;  // a copy a framework dlopen()ed itself from its pip wheel: no module needs it
  std::string wheel = copy_fixture_folder(tree, "cudnn_old_minor", "site-packages/nvidia/cudnn/lib");
  call.args = {"--preload", wheel + "/" + cudnn_file};
  probe_output from_wheel = run_probe(call);
  CHECK(from_wheel.text.find("; loaded at run time (dlopen) by another library of this process, from a pip wheel, as "
                             "frameworks such as PyTorch, TensorFlow and ONNX Runtime load it; cushim will not load") !=
        std::string::npos);
}

TEST_CASE("a wheel under ~/.local (pip install --user) and PyTorch's torch/lib are searched, after VIRTUAL_ENV") {
  temp_tree tree;
  const std::string site = "home/.local/lib/python3.11/site-packages/";
  std::string user_wheel = copy_fixture_folder(tree, "cudnn_tree", site + "nvidia/cudnn/lib");
  probe_call call;
  call.env["HOME"] = tree.path("home");
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.path") == user_wheel + "/" + cudnn_file);
  CHECK(out.get("cudnn.found_by") == "~/.local pip nvidia/cudnn");

  std::string torch = copy_fixture_folder(tree, "cudnn_tree", "venv/lib/python3.12/site-packages/torch/lib");
  call.env["VIRTUAL_ENV"] = tree.path("venv");  // comes first: the environment the program runs in
  probe_output venv = run_probe(call);
  CHECK(venv.get("cudnn.path") == torch + "/" + cudnn_file);
  CHECK(venv.get("cudnn.found_by") == "VIRTUAL_ENV torch/lib");

  call.args = {"--no-env"};  // HOME is the environment's: not read then
  call.env.erase("VIRTUAL_ENV");
  probe_output no_env = run_probe(call);
  CHECK(no_env.get("cudnn.found_by") != "~/.local pip nvidia/cudnn");
}

// The system loader's search for the driver meets a FIFO (LD_LIBRARY_PATH first): the runtime's and
// cuDNN's first calls that load the driver by name would wait on it forever. They return cushim's
// "unavailable" answer instead, and explain() names the FIFO; the calls that never load the driver
// still reach the libraries.
TEST_CASE(
    "a FIFO named libcuda.so.1 where the system loader looks: calls that would load the driver return, naming it") {
  temp_tree tree;
  const std::string fifo = tree.make_fifo("llp/libcuda.so.1");
  probe_call call;
  call.env["LD_LIBRARY_PATH"] = tree.path("llp");
  probe_output out = run_probe(call);  // before: cudnnCreate never returned (the probe's 20 s limit)
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  CHECK(out.get("cudnnCreate") == std::to_string(int(CUDNN_STATUS_NOT_INITIALIZED)));
  CHECK(out.get("cudnnGetVersion") == std::to_string(CUDNN_VERSION));  // never loads the driver
  CHECK(out.rest.find("  WARNING: every call of cuDNN but cudnnGetVersion, cudnnGetCudartVersion, cudnnGetErrorString, "
                      "cudnnGetProperty, cudnnGetLastErrorString and cudnnGetMaxDeviceVersion would load the driver, "
                      "and returns CUDNN_STATUS_NOT_INITIALIZED instead: the system loader's search for libcuda.so.1 "
                      "meets a FIFO, on which that load would wait forever\n    file: " +
                      fifo + "\n") != std::string::npos);
  CHECK(out.rest.find("  WARNING: every call of the CUDA runtime but cudaRuntimeGetVersion would load the driver, and "
                      "returns cudaErrorSharedObjectInitFailed instead: the system loader's search for libcuda.so.1 "
                      "meets a FIFO, on which that load would wait forever\n    file: " +
                      fifo + "\n") != std::string::npos);
}
