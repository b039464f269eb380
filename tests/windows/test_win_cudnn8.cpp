// cuDNN 8 on Windows, the case users hit most: cudnn64_8.dll and its six sub-libraries,
// zlibwapi.dll and cuBLAS. cushim is compiled against cuDNN 9 headers here, so each scenario runs
// cushim's loader in this process with the spec a cuDNN 8 build has (cudnn64_8.dll, 8.9.7). CTest
// runs every test case in a process of its own (a DLL loaded by one scenario would be found
// already loaded by the next).
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/win_probe.hpp"

using namespace cushim::detail;
using win_test::temp_dir;

namespace {

const std::vector<std::string> sub_names = {"ops_infer", "ops_train", "cnn_infer",
                                            "cnn_train", "adv_infer", "adv_train"};

std::string sub_file(const std::string& name) { return "cudnn_" + name + "64_8.dll"; }

// cuDNN's descriptor as a build with cuDNN 8.9.7 headers has it.
const library_descriptor& cudnn8_descriptor() {
  static const library_descriptor d = [] {
    library_descriptor copy = cudnn_descriptor;
    copy.compiled_version = 8907;
    copy.compiled_major = 8;
    return copy;
  }();
  return d;
}

void set_env(const std::string& name, const std::string& value) {
  ::SetEnvironmentVariableW(win_test::to_utf16(name).c_str(), win_test::to_utf16(value).c_str());
}

// Runs the loader once, with PATH set to `path` and only `search_dir` searched before it (or,
// with no search_dir, the environment's rules).
cushim::status load_cudnn8(const std::string& path, const std::string& search_dir = "") {
  set_env("PATH", path);
  cushim::options opts;
  if (!search_dir.empty()) {
    opts.use_environment = false;
    opts.search_dirs = {search_dir};
  }
  static library_state lib;
  lib.desc = &cudnn8_descriptor();
  lib.st.lib = cushim::library::cudnn;
  loader(lib, opts).run();
  lib.desc->hooks.complete_status(lib);  // what status_of() does before it answers
  return lib.st;
}

const cushim::sublibrary& sub(const cushim::status& st, const std::string& name) {
  static const cushim::sublibrary none{};
  for (const cushim::sublibrary& s : st.sublibraries) {
    if (s.name == name) return s;
  }
  return none;
}

std::string app_dir() { return parent_dir(platform::executable_path()); }

std::string problems(const cushim::status& st) {
  std::string text;
  for (const cushim::problem& p : st.problems) text += p.what + " | " + p.path + " | " + p.why + "\n";
  for (const cushim::attempt& a : st.attempts) text += a.rule + " " + a.path + ": " + a.detail + "\n";
  return text;
}

// The fixture cuDNN 8 and the DLLs it needs (zlibwapi, cuBLAS) in the folder "one" of `tree`,
// without the files named in `left_out`; returns the folder.
std::string cudnn8_in_one_folder(const temp_dir& tree, const std::vector<std::string>& left_out = {}) {
  std::string one = tree.copy_folder(win_test::fixture("cudnn8_good", ""), "one");
  for (const char* dependency : {"zlibwapi.dll", "cublas64_11.dll", "cublasLt64_11.dll"}) {
    if (std::find(left_out.begin(), left_out.end(), dependency) == left_out.end())
      tree.copy(win_test::fixture("cudnn8_deps", dependency), std::string("one\\") + dependency);
  }
  return one;
}

// Leaves none of the variables cushim reads from the CTest environment.
struct clean_environment {
  clean_environment() {
    for (const char* name : {"CUSHIM_SEARCH_PATH", "CUSHIM_CUDNN_PATH", "CUDNN_PATH", "CUDNN_HOME", "CUDNN_ROOT_DIR",
                             "CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX", "VIRTUAL_ENV"}) {
      ::SetEnvironmentVariableW(win_test::to_utf16(name).c_str(), nullptr);
    }
  }
};

}  // namespace

TEST_CASE("cuda_bin" * doctest::description("(a) cuDNN 8 copied into CUDA\\v11.8\\bin, found by CUDA_PATH: every "
                                            "sub-library preloaded from there, versions shown")) {
  clean_environment clean;
  temp_dir tree;
  std::string bin = tree.copy_folder(win_test::fixture("cudnn8_good", ""), "CUDA\\v11.8\\bin");
  tree.copy_folder(win_test::fixture("cudnn8_deps", ""), "CUDA\\v11.8\\bin");
  set_env("CUDA_PATH", tree.path("CUDA\\v11.8"));
  cushim::status st = load_cudnn8(tree.make_dirs("empty"));
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::ok);
  CHECK(st.path == bin + "\\cudnn64_8.dll");
  CHECK(st.found_by == "CUDA_PATH\\bin");
  CHECK(st.version == 8907);
  REQUIRE(st.sublibraries.size() == sub_names.size());
  for (const std::string& name : sub_names) {
    CAPTURE(name);
    const cushim::sublibrary& s = sub(st, name);
    CHECK(s.file_name == sub_file(name));
    CHECK(s.path == bin + "\\" + sub_file(name));
    CHECK(s.usable);
    CHECK(s.preloaded);  // the bare-name search (PATH, System32, ...) would not reach CUDA\v11.8\bin
    CHECK(s.version == 8907);
  }
  CHECK(sub(st, "ops_infer").required);
  CHECK(st.problems.empty());
}

TEST_CASE("path_split" * doctest::description("(b) cuDNN's folder and CUDA's bin both on PATH: cuDNN finds its "
                                              "sub-libraries itself; the root's PATH-only imports are loaded first")) {
  clean_environment clean;
  temp_dir tree;
  std::string cudnn = tree.copy_folder(win_test::fixture("cudnn8_good", ""), "cudnn\\bin");
  std::string cuda = tree.copy_folder(win_test::fixture("cudnn8_deps", ""), "cuda\\bin");
  cushim::status st = load_cudnn8(cudnn + ";" + cuda);
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::ok);
  CHECK(st.found_by == "PATH[0]");
  for (const std::string& name : sub_names) {
    CAPTURE(name);
    CHECK(sub(st, name).usable);
    CHECK_FALSE(sub(st, name).preloaded);
    CHECK(sub(st, name).path == cudnn + "\\" + sub_file(name));
  }
  // cushim loaded the root by its path, so Windows took zlibwapi.dll and cuBLASLt from where
  // cushim found them on PATH.
  CHECK(platform::loaded_copy_path("zlibwapi.dll") == cuda + "\\zlibwapi.dll");
  CHECK(platform::loaded_copy_path("cublasLt64_11.dll") == cuda + "\\cublasLt64_11.dll");
  CHECK(st.problems.empty());
}

TEST_CASE("path_missing_cublas" * doctest::description("(b) as above without cublas64_11.dll: cudnn_cnn_infer64_8.dll "
                                                       "is named with what it lacks, the rest works")) {
  clean_environment clean;
  temp_dir tree;
  std::string cudnn = tree.copy_folder(win_test::fixture("cudnn8_good", ""), "cudnn\\bin");
  std::string cuda = tree.copy_folder(win_test::fixture("cudnn8_deps", ""), "cuda\\bin");
  ::DeleteFileW(win_test::widen(cuda + "\\cublas64_11.dll").c_str());
  cushim::status st = load_cudnn8(cudnn + ";" + cuda);
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::ok);
  std::string why = cudnn + "\\cudnn_cnn_infer64_8.dll needs cublas64_11.dll, which is not in any of: " + app_dir() +
                    ", C:\\windows\\system32, C:\\windows, " + cudnn + ", " + cuda;
  CHECK_FALSE(sub(st, "cnn_infer").usable);
  CHECK(sub(st, "cnn_infer").problem == why);
  CHECK_FALSE(sub(st, "cnn_train").usable);  // it imports cnn_infer: the whole chain is named
  CHECK(sub(st, "cnn_train").problem == cudnn +
                                            "\\cudnn_cnn_train64_8.dll needs cudnn_cnn_infer64_8.dll, which needs "
                                            "cublas64_11.dll, which is not in any of: " +
                                            app_dir() + ", C:\\windows\\system32, C:\\windows, " + cudnn + ", " + cuda);
  CHECK(sub(st, "ops_infer").usable);
  CHECK(sub(st, "adv_train").usable);
  REQUIRE(st.problems.size() == 2);
  CHECK(st.problems[0].what ==
        "cuDNN's sub-library cudnn_cnn_infer64_8.dll is unusable; the cuDNN functions it serves return "
        "CUDNN_STATUS_NOT_INITIALIZED instead of letting cuDNN abort the process");
  CHECK(st.problems[0].fix ==
        "install one complete cuDNN 8 (every cudnn_*64_8.dll of one release, in one folder) and remove partial "
        "copies");
}

TEST_CASE("zlib_missing" * doctest::description("(c) zlibwapi.dll nowhere: named, with the DLL that needs it")) {
  clean_environment clean;
  temp_dir tree;
  std::string one = cudnn8_in_one_folder(tree, {"zlibwapi.dll"});
  std::string empty = tree.make_dirs("empty");
  cushim::status st = load_cudnn8(empty, one);
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::sublibrary_unusable);
  REQUIRE(st.attempts.size() >= 1);
  CHECK(st.attempts[0].result == cushim::outcome::sublibrary_unusable);
  CHECK(st.attempts[0].detail == "its root sub-library cudnn_ops_infer64_8.dll is unusable: " + one +
                                     "\\cudnn_ops_infer64_8.dll needs zlibwapi.dll, which is not in any of: " + one +
                                     ", " + app_dir() + ", C:\\windows\\system32, " + empty +
                                     ". cuDNN would abort the process at its first call");
  CHECK(platform::loaded_copy_path("cudnn64_8.dll").empty());  // refused and unloaded again
}

TEST_CASE("zlib_32bit" * doctest::description("(d) a 32-bit zlibwapi.dll beside cuDNN: the architecture is named")) {
  clean_environment clean;
  temp_dir tree;
  std::string one = cudnn8_in_one_folder(tree, {"zlibwapi.dll", "cublas64_11.dll"});
  tree.copy(win_test::fixture("zlib_x86", "zlibwapi.dll"), "one\\zlibwapi.dll");
  std::string empty = tree.make_dirs("empty");
  cushim::status st = load_cudnn8(empty, one);
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::sublibrary_unusable);
  CHECK(sub(st, "ops_infer").problem ==
        one + "\\cudnn_ops_infer64_8.dll needs zlibwapi.dll, which is not in any of: " + one +
            "\\zlibwapi.dll (skipped: a DLL for x86 (32-bit); this process is "
            "x64), " +
            app_dir() + ", C:\\windows\\system32, " + empty);
}

TEST_CASE("only_main" * doctest::description("(e) only cudnn64_8.dll copied: unavailable, each sub-library named")) {
  clean_environment clean;
  temp_dir tree;
  std::string main = tree.copy(win_test::fixture("cudnn8_good", "cudnn64_8.dll"), "only\\cudnn64_8.dll");
  std::string empty = tree.make_dirs("empty");
  cushim::status st = load_cudnn8(empty, tree.path("only"));
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::sublibrary_unusable);
  REQUIRE(st.sublibraries.size() == sub_names.size());
  for (const std::string& name : sub_names) {
    CAPTURE(name);
    CHECK_FALSE(sub(st, name).usable);
    CHECK(sub(st, name).problem == sub_file(name) + " is not beside " + main +
                                       " and cuDNN's own search would not find it (looked in: " + app_dir() +
                                       ", C:\\windows\\system32, C:\\windows, " + empty + ")");
  }
}

TEST_CASE("missing_entry" * doctest::description("error 127: cudnn_ops_infer64_8.dll of another release lacks a "
                                                 "function cudnn_cnn_infer64_8.dll imports")) {
  clean_environment clean;
  temp_dir tree;
  std::string one = cudnn8_in_one_folder(tree);
  tree.copy(win_test::fixture("cudnn8_old_ops", "cudnn_ops_infer64_8.dll"), "one\\cudnn_ops_infer64_8.dll");
  cushim::status st = load_cudnn8(tree.make_dirs("empty"), one);
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::ok);  // the root itself loads; it has no version resource
  CHECK(sub(st, "ops_infer").usable);
  CHECK(sub(st, "ops_infer").version == 0);
  CHECK_FALSE(sub(st, "cnn_infer").usable);
  CHECK(sub(st, "cnn_infer").problem ==
        one + "\\cudnn_cnn_infer64_8.dll imports 1 function from cudnn_ops_infer64_8.dll that " + one +
            "\\cudnn_ops_infer64_8.dll does not export (cudnn_ops_infer_new_entry): Windows refuses it with error "
            "127, the two files come from different releases");
}

TEST_CASE("mixed_versions" * doctest::description("sub-libraries of two releases: the odd one is named with both "
                                                  "versions")) {
  clean_environment clean;
  temp_dir tree;
  std::string one = cudnn8_in_one_folder(tree);
  tree.copy(win_test::fixture("cudnn8_821", "cudnn_ops_train64_8.dll"), "one\\cudnn_ops_train64_8.dll");
  cushim::status st = load_cudnn8(tree.make_dirs("empty"), one);
  INFO(problems(st));
  CHECK(st.code == cushim::error_code::ok);
  CHECK(sub(st, "ops_train").version == 8201);
  CHECK_FALSE(sub(st, "ops_train").usable);
  CHECK(sub(st, "ops_train").problem == one + "\\cudnn_ops_train64_8.dll is cuDNN 8.2.1, but " + one +
                                            "\\cudnn_ops_infer64_8.dll is 8.9.7: sub-libraries of two installations");
  CHECK(sub(st, "cnn_infer").usable);
}
