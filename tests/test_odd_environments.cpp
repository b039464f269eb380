// Search lists as people's machines have them: very long, full of empty, relative, duplicate and
// non-UTF-8 entries. The search must stay correct, report what it skipped, and finish quickly.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/probe.hpp"
#include "support/temp_tree.hpp"

using namespace test_support;

namespace {

// Attempts with this outcome, each listed one and those a summary line counts ("N more entries of
// LIST with this outcome, not listed one by one").
std::size_t count_outcome(const probe_output& out, const std::string& outcome) {
  std::size_t n = 0;
  for (const attempt_line& a : attempts_of(out)) {
    if (a.outcome != outcome) continue;
    n += a.rule.size() > 5 && a.rule.compare(a.rule.size() - 5, 5, "[...]") == 0 ? std::stoul(a.detail) : 1;
  }
  return n;
}

// The attempts of one search list with one outcome that are listed one by one.
std::size_t listed(const probe_output& out, const std::string& list, const std::string& outcome) {
  std::size_t n = 0;
  for (const attempt_line& a : attempts_of(out))
    n += a.outcome == outcome && a.rule.rfind(list + "[", 0) == 0 && a.rule != list + "[...]";
  return n;
}

}  // namespace

// Short entries: one environment string may hold at most 128 KiB (MAX_ARG_STRLEN).
std::string long_list(const temp_tree& tree, int entries) {
  std::string list;
  for (int i = 0; i < entries; ++i) {
    switch (i % 4) {
      case 0: list += "/n" + std::to_string(i); break;
      case 1: break;  // empty
      case 2: list += "r"; break;
      case 3: list += tree.root(); break;  // the same folder again and again
    }
    list += ':';
  }
  return list;
}

TEST_CASE("10,000 entries: absent, empty, relative and duplicate; the real library still wins") {
  temp_tree tree;
  probe_call call;
  call.env["CUSHIM_SEARCH_PATH"] = long_list(tree, 10000);
  call.env["LD_LIBRARY_PATH"] = long_list(tree, 1000);
  probe_output out = run_probe(call);
  check_real_cudnn_from_cache(out);
  CHECK(count_outcome(out, "skipped_empty") == 2500 + 1 + 250 + 1);  // each list ends with ':'
  CHECK(count_outcome(out, "skipped_relative") == 2500 + 250);
  CHECK(count_outcome(out, "folder_absent") == 2500);
  // The tree's folder is absent once; every later mention of it, and LD_LIBRARY_PATH's copies
  // of the CUSHIM_SEARCH_PATH entries, are the same files again.
  CHECK(count_outcome(out, "duplicate") == 2499 + 250 + 250);
  // Of each list and outcome, 32 entries are listed one by one; one line sums up the rest.
  for (const char* outcome : {"skipped_empty", "skipped_relative", "folder_absent", "duplicate"}) {
    CAPTURE(outcome);
    CHECK(listed(out, "CUSHIM_SEARCH_PATH", outcome) == 32);
  }
  CHECK(listed(out, "LD_LIBRARY_PATH", "skipped_empty") == 32);
  CHECK(out.text.find("CUSHIM_SEARCH_PATH has 2493 more empty entries, which cushim skipped") != std::string::npos);
  CHECK(out.text.find("CUSHIM_SEARCH_PATH has 2492 more relative entries, which cushim skipped") != std::string::npos);
}

TEST_CASE("130,001 empty entries: one summary, and an explanation of a few kilobytes") {
  probe_call call;
  call.env["CUSHIM_SEARCH_PATH"] = std::string(130000, ':');  // near the 128 KiB one environment string may hold
  probe_output out = run_probe(call);
  check_real_cudnn_from_cache(out);
  CHECK(listed(out, "CUSHIM_SEARCH_PATH", "skipped_empty") == 32);
  CHECK(count_outcome(out, "skipped_empty") == 130001);
  std::string explanation = out.text.substr(out.text.find("--- explain\n"));
  CHECK(explanation.size() < 32 * 1024);
  CHECK(
      explanation.find("    33. CUSHIM_SEARCH_PATH[...]:  -> skipped_empty (129969 more entries of CUSHIM_SEARCH_PATH "
                       "with this outcome, not listed one by one)\n") != std::string::npos);
  CHECK(explanation.find("  WARNING: CUSHIM_SEARCH_PATH has 129993 more empty entries, which cushim skipped\n") !=
        std::string::npos);
}

TEST_CASE("a 32,767-character entry and non-UTF-8 bytes are looked at, reported, and kept valid in JSON") {
  temp_tree tree;
  std::string long_entry = "/" + std::string(32766, 'x');
  std::string latin1 = tree.make_dirs(std::string("caf\xe9"));  // a Latin-1 byte, not UTF-8
  tree.copy_file(fixture("cudnn_good"), std::string("caf\xe9/") + cudnn_file);
  probe_call call;
  call.env["CUSHIM_SEARCH_PATH"] = long_entry + ":" + latin1;
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.path") == latin1 + "/" + cudnn_file);
  CHECK(out.get("cudnn.identity") == "cudnn_good");
  std::vector<attempt_line> attempts = attempts_of(out);
  REQUIRE(attempts.size() >= 2);
  CHECK(attempts[0].path == long_entry + "/" + cudnn_file);
  CHECK(attempts[0].outcome != "loaded");

  call.args = {"--json"};
  probe_output with_json = run_probe(call);
  std::string json = with_json.text.substr(with_json.text.find("--- json\n"));
  CHECK(json.find("caf\\ufffd/" + cudnn_file) != std::string::npos);
  CHECK(json.find("caf\xe9") == std::string::npos);
}

TEST_CASE("CUSHIM_TRUSTED_DIRS_ONLY=1 refuses a library other users could have planted") {
  temp_tree tree;
  std::string open_dir = tree.make_dirs("open");
  std::string group_dir = tree.make_dirs("group");
  std::string planted = tree.copy_file(fixture("cudnn_good"), "open/" + cudnn_file);
  tree.copy_file(fixture("cudnn_good"), "group/" + cudnn_file);
  std::filesystem::permissions(open_dir, std::filesystem::perms::all);
  std::filesystem::permissions(group_dir, std::filesystem::perms::owner_all | std::filesystem::perms::group_all);
  probe_call call;
  call.env["CUSHIM_SEARCH_PATH"] = open_dir + ":" + group_dir;
  call.env["CUSHIM_TRUSTED_DIRS_ONLY"] = "1";
  probe_output out = run_probe(call);
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  std::vector<attempt_line> attempts = attempts_of(out);
  REQUIRE(attempts.size() >= 2);
  CHECK(attempts[0].outcome == "untrusted_location");
  CHECK(attempts[0].detail == open_dir + " is writable by every user (mode 0777); trusted_dirs_only refuses it");
  CHECK(attempts[1].outcome == "untrusted_location");
  CHECK(attempts[1].detail == group_dir + " is writable by its group (mode 0770); trusted_dirs_only refuses it");

  call.env.erase("CUSHIM_TRUSTED_DIRS_ONLY");  // without it, the first copy is used
  probe_output relaxed = run_probe(call);
  CHECK(relaxed.get("cudnn.path") == planted);
}

TEST_CASE("a /proc file named as the library is not called empty: it says 0 bytes but reads otherwise") {
  const std::string pseudo_file =
      "not a regular file with a size: the system says 0 bytes, but it reads otherwise (a /proc or /sys file)";
  for (const char* path : {"/proc/self/environ", "/proc/self/mem"}) {
    CAPTURE(path);
    probe_call call;
    call.env["CUSHIM_CUDNN_PATH"] = path;
    probe_output out = run_probe(call);
    CHECK(out.get("cudnn.code") == "override_failed");
    CHECK(joined(out.all("cudnn.attempt")) ==
          joined({std::string("CUSHIM_CUDNN_PATH|") + path + "|bad_format|" + pseudo_file}));
  }
  temp_tree tree;
  probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = tree.write_file("empty/" + cudnn_file, "");  // a real empty file still is one
  probe_output out = run_probe(call);
  CHECK(joined(out.all("cudnn.attempt")) == joined({"CUSHIM_CUDNN_PATH|" + tree.path("empty/" + cudnn_file) +
                                                    "|bad_format|not a shared library: file is empty"}));
}

TEST_CASE("the toolkit's stub libcuda copied as libcuda.so.1 is named as the stub, wherever it is, and is no driver") {
  const std::string stub = std::string(CUSHIM_CUDA_LIB_DIR) + "/stubs/libcuda.so";
  if (access(stub.c_str(), R_OK) != 0) {
    MESSAGE("skipped: no toolkit stub at " << stub);
    return;
  }
  temp_tree tree;
  std::string copied = tree.copy_file(stub, "lib/libcuda.so.1");  // the container mistake: out of stubs/
  probe_call call;
  call.env["LD_LIBRARY_PATH"] = tree.path("lib");
  probe_output out = run_probe(call);
  std::string text = out.text.substr(out.text.find("--- explain"));
  INFO(text);
  CHECK(text.find("NVIDIA driver: not found\n    LD_LIBRARY_PATH[0]: " + copied +
                  " -> not_the_library (the CUDA toolkit's link-time stub, not the driver: cuDriverGetVersion answers "
                  "CUDA_ERROR_STUB_LIBRARY (34))\n") != std::string::npos);
  CHECK(text.find("  WARNING: the CUDA toolkit's link-time stub of the driver is where the system loader looks for the "
                  "driver\n    file: " +
                  copied + "\n") != std::string::npos);
  CHECK(text.find("    fix:  remove it (or the folder holding it) from where the loader looks: it is a toolkit's "
                  "lib64/stubs/libcuda.so, copied or linked; then install the NVIDIA driver") != std::string::npos);
}

TEST_CASE("a library value out of range gets a defined answer from every public function") {
  probe_call call;
  call.args = {"--mode", "bad-library-values"};
  probe_output out = run_probe(call);
  INFO(out.text);
  for (const char* value : {"count", "99", "-1"}) {  // "count": library(library_count)
    CAPTURE(value);
    const std::string p = std::string("library(") + value + ")";
    CHECK(out.get(p + ".available") == "0");
    CHECK(out.get(p + ".error_of") == "disabled");
    CHECK(out.get(p + ".to_string") == "unknown");
    CHECK(out.get(p + ".status.code") == "disabled");
    CHECK(out.get(p + ".problem") == "status_of() was asked about a value that is not one of cushim::library's");
    CHECK(out.get(p + ".version_text") == "unknown");
    CHECK(out.get(p + ".display_name") == "unknown library");
    CHECK(out.get(p + ".name_in_sentence") == "an unknown library");
    CHECK(out.get(p + ".files") == "/nowhere");  // options.files' spare entry, which cushim never reads
  }
  CHECK(out.get("cudnn.code") == "ok");  // the real libraries are untouched
}

TEST_CASE("a setuid program run by another user loads nothing its caller's environment names, and says so") {
  if (::geteuid() != 0 || ::access("/usr/bin/setpriv", X_OK) != 0) {
    MESSAGE("skipped: a setuid-root program run by another user needs root and /usr/bin/setpriv");
    return;
  }
  temp_tree tree;
  std::filesystem::permissions(tree.root(), std::filesystem::perms(0755));  // mkdtemp's folder is 0700
  std::string planted = tree.copy_file(fixture("cudnn_good"), "planted/" + cudnn_file);
  std::filesystem::permissions(tree.path("planted"), std::filesystem::perms(0755));
  std::string program = tree.copy_file(CUSHIM_PROBE, "bin/cushim_probe");
  std::filesystem::permissions(tree.path("bin"), std::filesystem::perms(0755));
  probe_call call;
  call.program = "/usr/bin/setpriv";  // runs it as nobody: a setuid-root program started by a user
  call.args = {"--reuid=65534", "--regid=65534", "--clear-groups", program};
  for (const char* variable : {"CUSHIM_CUDNN_PATH", "CUSHIM_SEARCH_PATH", "CUDNN_PATH"}) {
    CAPTURE(variable);
    call.env = test_support::clean_environment();
    call.env[variable] = std::string(variable) == "CUSHIM_CUDNN_PATH" ? planted : tree.path("planted");
    std::string& asan = call.env["ASAN_OPTIONS"];  // LeakSanitizer cannot trace a setuid process
    asan += (asan.empty() ? "" : ":") + std::string("detect_leaks=0");

    std::filesystem::permissions(program, std::filesystem::perms(0755));  // not setuid: the variable wins
    probe_output plain = run_probe(call);
    CHECK(plain.get("cudnn.path") == planted);

    REQUIRE(::chmod(program.c_str(), 04755) == 0);  // setuid root
    probe_output secure = run_probe(call);
    INFO(secure.text);
    check_real_cudnn_from_cache(secure);
    CHECK(secure.text.find("\nNOTE: this process runs in secure-execution mode (AT_SECURE: a setuid or setgid "
                           "program, or one with file capabilities): cushim read none of the environment variables "
                           "that steer what it loads") != std::string::npos);
  }
}

#if CUDNN_MAJOR >= 9
namespace {

// libcudnn_<name>.so.<major>.<minor>[.<patch>]: the names cuDNN 9's own loads try first.
std::string release_name(const std::string& name, bool with_patch) {
  return "libcudnn_" + name + ".so." + std::to_string(CUDNN_MAJOR) + "." + std::to_string(CUDNN_MINOR) +
         (with_patch ? "." + std::to_string(CUDNN_PATCHLEVEL) : "");
}

}  // namespace

TEST_CASE("a FIFO where cuDNN's own load of its root sub-library looks: named as the blocker, never the good copy") {
  temp_tree tree;
  std::string fifo = tree.make_fifo("llp/" + release_name("graph", true));
  for (bool in_child : {false, true}) {
    CAPTURE(in_child);
    probe_call call;
    call.env["LD_LIBRARY_PATH"] = tree.path("llp");
    if (in_child) call.env["CUSHIM_PROBE_IN_CHILD"] = "1";
    probe_output out = run_probe(call);  // cudnnGetVersion would wait on the FIFO forever
    INFO(out.text);
    CHECK(out.get("cudnn.code") == "sublibrary_unusable");
    CHECK(out.get("cudnnGetVersion") == "0");
    CHECK(outcome_at(out, real_cudnn()) == "sublibrary_unusable");
    CHECK(out.text.find("|" + real_cudnn() + "|crashed|") == std::string::npos);
    CHECK(out.text.find("remove or replace this file") == std::string::npos);
    CHECK(out.text.find("cuDNN's own load of it by name would open " + fifo +
                        ", a FIFO, which the system loader opens and then waits on for a writer, forever. "
                        "cudnnGetVersion, cuDNN's first call, would never return") != std::string::npos);
    std::string explanation = out.text.substr(out.text.find("--- explain"));
    CHECK(explanation.find("  WARNING: cuDNN's own load of its root sub-library libcudnn_graph.so." +
                           std::to_string(CUDNN_MAJOR) + " would wait forever on a FIFO\n    file: " + fifo + "\n") !=
          std::string::npos);
    CHECK(explanation.find("    fix:  remove " + fifo + ", or take its folder out of LD_LIBRARY_PATH\n") !=
          std::string::npos);
  }
}

TEST_CASE("a FIFO where cuDNN's own load of another sub-library looks: its functions are gated, not left to hang") {
  temp_tree tree;
  std::string fifo = tree.make_fifo("llp/" + release_name("cnn", false));  // met by the second name cuDNN tries
  probe_call call;
  call.env["LD_LIBRARY_PATH"] = tree.path("llp");
  call.args = {"--call-convolution"};
  probe_output out = run_probe(call);  // the first cnn call would wait on the FIFO forever
  INFO(out.text);
  check_real_cudnn_from_cache(out);
  CHECK(out.get("cudnnConvolutionForward") == std::to_string(int(CUDNN_STATUS_NOT_INITIALIZED)));
  const std::string cnn = "libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR);
  CHECK(out.text.find("cudnn.sublibrary=" + cnn + "|0|0|0|" + fifo + "|cuDNN's own load of it by name would open " +
                      fifo + ", a FIFO") != std::string::npos);
  std::string explanation = out.text.substr(out.text.find("--- explain"));
  CHECK(explanation.find("  WARNING: cuDNN's sub-library " + cnn +
                         " is unusable; the cuDNN functions it serves return CUDNN_STATUS_NOT_INITIALIZED instead of "
                         "waiting forever in cuDNN's load of it\n    file: " +
                         fifo + "\n") != std::string::npos);
  CHECK(explanation.find("  WARNING: cudnnConvolutionForward needs " + cnn + ", which is unusable (see above)") !=
        std::string::npos);
}
#endif
