// cuBLAS, cuBLASLt, NVRTC and the driver API in scenarios, each run by cushim_probe_all (every
// library opted into) in a fresh process with a clean environment: the overrides, the driver's
// system-only search (one search for the driver section too), NVRTC's builtins, cuBLAS with a
// cuBLASLt of another release; and cuDNN's by-name loads of cuBLASLt and NVRTC (cushim_probe).
#include <sys/stat.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/elf_files.hpp"
#include "support/library_files.hpp"
#include "support/opt_in_headers.hpp"
#include "support/plain_libraries.hpp"
#include "support/probe.hpp"
#include "support/process.hpp"
#include "support/temp_tree.hpp"

using namespace test_support;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string fixture_file(const std::string& folder, const std::string& file) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder + "/" + file;
}

probe_output run_all(probe_call call) {
  call.program = CUSHIM_PROBE_ALL;
  call.args.push_back("--json");
  return run_probe(call);
}

const std::string cuda_major = std::to_string(CUDART_VERSION / 1000);

// The outcome of the driver API's attempt at `path`, or "<not tried>".
std::string driver_outcome_at(const key_values& out, const std::string& path) {
  for (const attempt_line& a : attempts_of(out, "driver")) {
    if (a.path == path) return a.outcome;
  }
  return "<not tried>";
}

// What a calls_between program printed (tests/calls_between/program.cpp), run with `variables`.
key_values run_calls_between(const std::string& program, const environment& variables) {
  process_spec spec;
  spec.program = program;
  for (const auto& v : variables) spec.env[v.first] = v.second;
  process_result r = run_process(spec);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  return parse_key_values(r.out);
}

bool starts_with(const std::string& text, const std::string& start) { return text.rfind(start, 0) == 0; }

// Every other library behind an empty override: the CUDA runtime (and what it brings in) would
// load libcuda.so.1 itself, by name, before cushim's own search for the driver API.
void driver_alone(probe_call& call, const temp_tree& tree) {
  std::string empty = tree.make_dirs("empty");
  call.args.insert(call.args.end(), {"--cudnn-file", empty, "--cudart-file", empty});
  for (const char* variable : {"CUSHIM_CUBLAS_PATH", "CUSHIM_CUBLASLT_PATH", "CUSHIM_NVRTC_PATH"})
    call.env[variable] = empty;
}

}  // namespace

TEST_CASE("each override to an empty folder gives its fallbacks and an ERROR that names it") {
  struct override_case {
    std::vector<cushim::library> libraries;  // cuBLASLt's with cuBLAS's: cuBLAS would bring its cuBLASLt in
    std::vector<const char*> variables;
    std::vector<std::string> calls;  // call.<library>= the fallback
  };
  const override_case cases[] = {{{cushim::library::cublas}, {"CUSHIM_CUBLAS_PATH"}, {"call.cublas=1"}},
                                 {{cushim::library::cublas, cushim::library::cublasLt},
                                  {"CUSHIM_CUBLAS_PATH", "CUSHIM_CUBLASLT_PATH"},
                                  {"call.cublas=1", "call.cublasLt=1"}},
                                 {{cushim::library::nvrtc}, {"CUSHIM_NVRTC_PATH"}, {"call.nvrtc=11|0.0"}}};
  const std::vector<std::string> titles = {"", "", "cuBLAS", "cuBLASLt", "NVRTC"};
  for (const override_case& c : cases) {
    temp_tree tree;
    std::string empty = tree.make_dirs("empty");
    probe_call call;
    for (const char* variable : c.variables) call.env[variable] = empty;
    probe_output out = run_all(call);
    INFO(out.text);
    for (std::size_t i = 0; i < c.libraries.size(); ++i) {
      cushim::library lib = c.libraries[i];
      std::string key = key_of(lib), file = empty + "/" + file_of(lib);
      const std::string& title = titles[std::size_t(lib)];
      CHECK(out.get(key + ".code") == "override_failed");
      CHECK(out.all(key + ".attempt") ==
            std::vector<std::string>{std::string(c.variables[i]) + "|" + file + "|absent|"});
      CHECK(contains(out.rest, "  ERROR: " + title + " was not loaded from the explicit location " + c.variables[i] +
                                   " names; cushim does not fall back to a search when one is given\n    file: " +
                                   file + "\n    why:  absent\n    fix:  point " + c.variables[i] + " at a readable " +
                                   file_of(lib) + " (or the folder holding it), or unset it to let cushim search\n"));
      CHECK(out.get(c.calls[i].substr(0, c.calls[i].find('='))) == c.calls[i].substr(c.calls[i].find('=') + 1));
    }
  }
}

TEST_CASE("CUSHIM_CUBLASLT_PATH loses to the cuBLASLt cuBLAS brought in, with a warning naming both") {
  temp_tree tree;
  std::string empty = tree.make_dirs("empty");
  probe_call call;
  call.env["CUSHIM_CUBLASLT_PATH"] = empty;
  probe_output out = run_all(call);
  INFO(out.text);
  CHECK(out.get("cublas.code") == "ok");
  CHECK(out.get("cublasLt.code") == "ok");
  CHECK(out.get("cublasLt.found_by") == "already loaded in this process");
  CHECK(out.get("cublasLt.path") ==
        out.get("cublas.path").substr(0, out.get("cublas.path").rfind('/') + 1) + file_of(cushim::library::cublasLt));
  CHECK(out.has("cublasLt.problem", "ok|0|CUSHIM_CUBLASLT_PATH names " + empty + "/" +
                                        file_of(cushim::library::cublasLt) +
                                        ", but another copy is already loaded in this process; cushim uses that one"));
}

TEST_CASE("cuBLAS that would run with a cuBLASLt of another release is refused, naming both") {
  std::string pair = fixture_file("cublas_pair", file_of(cushim::library::cublas));
  std::string other = fixture_file("cublaslt_other", file_of(cushim::library::cublasLt));
  probe_call call;
  call.args = {"--preload", other};
  call.env["CUSHIM_SEARCH_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/cublas_pair";
  probe_output out = run_all(call);
  INFO(out.text);
  // Every cuBLAS found (the pair's, the toolkit's) would run with the other release's cuBLASLt.
  CHECK(out.get("cublas.code") == "version_mismatch");
  std::string other_release = std::to_string(CUBLAS_VER_MAJOR) + "." + std::to_string(CUBLAS_VER_MINOR) + "." +
                              std::to_string(CUBLAS_VER_PATCH + 9);
  CHECK(out.has("cublas.attempt",
                "CUSHIM_SEARCH_PATH[0]|" + pair + "|wrong_version|cuBLAS " +
                    other_release.substr(0, other_release.rfind('.')) + "." + std::to_string(CUBLAS_VER_PATCH) +
                    "; the cuBLASLt it runs with, " + other + ", is " + other_release +
                    ": cuBLAS and cuBLASLt of two releases (install them together, from one release)"));
  CHECK(out.get("call.cublas") == "1");
  // The cuBLASLt in the process is the other release's, reused: its own calls work.
  CHECK(out.get("cublasLt.path") == other);

  // Without the other release in the process, the pair loads together.
  probe_call alone;
  alone.env["CUSHIM_CUBLAS_PATH"] = pair;
  out = run_all(alone);
  CHECK(out.get("cublas.code") == "ok");
  CHECK(out.get("cublas.identity") == "cublas_pair");
  CHECK(out.get("cublasLt.identity") == "cublas_pair");
}

TEST_CASE("NVRTC's builtins: a warning naming the file when NVRTC's search would miss it, preloaded when beside") {
  std::string minor = cuda_major + ".9";
  std::string builtins = "libnvrtc-builtins.so." + minor;
  temp_tree tree;
  std::string nvrtc = tree.copy_file(fixture_file("nvrtc_other_minor", file_of(cushim::library::nvrtc)),
                                     "nvrtc/" + file_of(cushim::library::nvrtc));
  probe_call call;
  call.env["CUSHIM_NVRTC_PATH"] = tree.path("nvrtc");
  probe_output out = run_all(call);
  INFO(out.text);
  CHECK(out.get("nvrtc.code") == "ok");
  CHECK(out.get("nvrtc.sublibrary").rfind(builtins + "|0|0|", 0) == 0);
  CHECK(out.has("nvrtc.problem",
                "ok|0|NVRTC loads " + builtins + " by name when it compiles, and would not get a usable copy"));
  CHECK(contains(out.rest,
                 "    why:  it is not beside " + nvrtc + ", and NVRTC's load by name would not find it (looked in: "));
  CHECK(contains(out.rest, "; nvrtcCompileProgram fails with NVRTC_ERROR_BUILTIN_OPERATION_FAILURE\n"));
  CHECK(contains(out.rest, "    fix:  install NVRTC " + minor + " complete (the CUDA " + cuda_major +
                               " toolkit, or the pip package nvidia-cuda-nvrtc-cu" + cuda_major + "), with " +
                               builtins + " beside " + nvrtc + " or in a folder of LD_LIBRARY_PATH\n"));
  CHECK(contains(out.rest, "    " + builtins + ": UNUSABLE, " + minor + "\n"));

  std::string beside = tree.copy_file(fixture_file("nvrtc_builtins", builtins), "nvrtc/" + builtins);
  out = run_all(call);
  CHECK(out.get("nvrtc.code") == "ok");
  CHECK(out.get("nvrtc.sublibrary") ==
        builtins + "|1|1|" + std::to_string(CUDART_VERSION / 1000 * 1000 + 90) + "|" + beside + "|");
  CHECK_FALSE(out.has("nvrtc.problem"));
  CHECK(contains(out.rest, "    " + builtins + ": OK, " + minor + ", " + beside +
                               " (preloaded by cushim: NVRTC's own search would not find this copy)\n"));
}

TEST_CASE("the driver: found only where the system installs it, and the driver section is the same search") {
  temp_tree tree;
  std::string good = tree.copy_file(fixture_file("driver_good", "libcuda.so.1"), "system/libcuda.so.1");
  probe_call call;
  driver_alone(call, tree);
  call.env["LD_LIBRARY_PATH"] = tree.path("system");
  call.env["CUDA_PATH"] = tree.path("cuda");  // never searched for the driver
  tree.copy_file(fixture_file("driver_newer", "libcuda.so.1"), "cuda/lib64/libcuda.so.1");
  probe_output out = run_all(call);
  INFO(out.text);
  CHECK(out.get("driver.code") == "ok");
  CHECK(out.get("driver.path") == good);
  CHECK(out.get("driver.found_by") == "LD_LIBRARY_PATH[0]");
  CHECK(out.get("driver.identity") == "driver_good");
  CHECK(out.get("call.driver") == "0");  // the fake's cuInit(0)
  CHECK(driver_outcome_at(out, tree.path("cuda/lib64/libcuda.so.1")) == "<not tried>");
  CHECK(contains(out.rest, "NVIDIA driver: " + good + ", supports CUDA up to " + cuda_major + ".0\n"));
  CHECK(contains(out.rest, "\"driver\":{\"found\":true,\"path\":\"" + good +
                               "\",\"cuda_version\":" + std::to_string(CUDART_VERSION / 1000 * 1000) +
                               ",\"attempts\":[{\"rule\":\"LD_LIBRARY_PATH[0]\""));
  CHECK_FALSE(contains(out.rest, "no NVIDIA driver was found"));
}

TEST_CASE("the driver: a newer major is used, an older one refused, and the driver section shows it") {
  temp_tree tree;
  std::string newer = tree.copy_file(fixture_file("driver_newer", "libcuda.so.1"), "newer/libcuda.so.1");
  std::string older = tree.copy_file(fixture_file("driver_older", "libcuda.so.1"), "older/libcuda.so.1");
  probe_call call;
  driver_alone(call, tree);
  call.env["LD_LIBRARY_PATH"] = tree.path("newer");
  probe_output out = run_all(call);
  INFO(out.text);
  CHECK(out.get("driver.code") == "ok");
  CHECK(out.get("driver.version") == std::to_string((CUDART_VERSION / 1000 + 1) * 1000));

  call.env["LD_LIBRARY_PATH"] = tree.path("older");
  out = run_all(call);
  CHECK(out.get("driver.code") == "version_mismatch");
  CHECK(driver_outcome_at(out, older) == "wrong_version");
  CHECK(contains(out.rest, "NVIDIA driver: " + older + "\n"));
  CHECK_FALSE(contains(out.rest, "no NVIDIA driver was found"));
  CHECK(out.get("call.driver") == "303");
}

TEST_CASE("the driver: never a toolkit's stub, never a folder others may write, no override") {
  temp_tree tree;
  std::string stub = tree.copy_file(fixture_file("driver_good", "libcuda.so.1"), "cuda/lib64/stubs/libcuda.so.1");
  std::string open = tree.copy_file(fixture_file("driver_good", "libcuda.so.1"), "open/libcuda.so.1");
  REQUIRE(::chmod(tree.path("open").c_str(), 0777) == 0);
  probe_call call;
  driver_alone(call, tree);
  call.env["LD_LIBRARY_PATH"] = tree.path("cuda/lib64/stubs") + ":" + tree.path("open");
  call.args.insert(call.args.end(), {"--library-file", "driver", open});
  probe_output out = run_all(call);
  INFO(out.text);
  CHECK(out.get("driver.code") == "not_the_library");
  CHECK(driver_outcome_at(out, stub) == "not_the_library");
  CHECK(contains(out.get("driver.attempt"),
                 "the CUDA toolkit's link-time stub, not the driver: remove its stubs folder"));
  CHECK(driver_outcome_at(out, open) == "untrusted_location");
  CHECK(out.has("driver.problem", "ok|0|options.files[driver] is ignored: the CUDA driver API has no override"));
  CHECK(contains(out.rest,
                 "NVIDIA driver: not found\n    LD_LIBRARY_PATH[0]: " + stub + " -> not_the_library (the CUDA "));
  CHECK(contains(out.rest, "    LD_LIBRARY_PATH[1]: " + open + " -> untrusted_location ("));
  CHECK(contains(out.rest, "; only the system's own copy is used)\n"));
}

TEST_CASE("cuDNN 9 would not find the cuBLASLt and NVRTC it loads by name: a warning each, naming the file") {
  if (CUDNN_MAJOR < 9) return;  // cuDNN 8 imports them
  std::string previous = std::to_string(CUDART_VERSION / 1000 - 1);
  temp_tree tree;
  std::string cudnn = copy_fixture_folder(tree, "cudnn_tree_previous_cuda", "cudnn");
  probe_call call;
  call.args = {"--cudnn-file", cudnn};
  probe_output out = run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.has("cudnn.problem", "ok|0|cuDNN loads libcublasLt.so." + previous +
                                     " by name when some of its engines run (matrix multiplications, some "
                                     "convolutions, RNNs, attention), and its search would not find it"));
  CHECK(
      out.has("cudnn.problem", "ok|0|cuDNN loads libnvrtc.so." + previous +
                                   " by name when its runtime-compiled engines run (fused and generated kernels), and "
                                   "its search would not find it"));
  CHECK(contains(out.rest, "    fix:  install NVRTC for CUDA " + previous + " (the CUDA " + previous +
                               " toolkit, or the pip package nvidia-cuda-nvrtc-cu" + previous +
                               ") in a folder cuDNN's search reaches (LD_LIBRARY_PATH)\n"));

  // Both where cuDNN's own load looks: no warning.
  tree.copy_file(fixture_file("driver_good", "libcuda.so.1"), "cuda/libcublasLt.so." + previous);  // any ELF library
  tree.copy_file(fixture_file("driver_good", "libcuda.so.1"), "cuda/libnvrtc.so." + previous);
  call.env["LD_LIBRARY_PATH"] = tree.path("cuda");
  out = run_probe(call);
  CHECK(out.get("cudnn.code") == "ok");
  for (const std::string& p : out.all("cudnn.problem")) CHECK(!contains(p, "by name"));
}

// NVIDIA's libraries call each other through versioned imports (libcusolver's
// cublasSgemm_v2@libcublas.so.13); a program's exported stubs carry cushim's own version, so those
// calls reach the library the caller was linked against, as without cushim, whatever cushim chose.
TEST_CASE("a library's own calls into cuBLAS reach the cuBLAS it was linked against, never cushim's stubs") {
  const std::string fixtures = CUSHIM_FIXTURE_DIR;
  const std::string program = CUSHIM_CALLS_BETWEEN_PROGRAM;
  // The stubs the "cuSOLVER" and its cuBLAS import are in the program's dynamic symbol table (ld.bfd
  // exports them for them), under cushim's version; the program links no cuBLAS.
  const std::string exported = command_output("LC_ALL=C readelf --dyn-syms -W '" + program + "'");
  CHECK(contains(exported, " cublasGetStatusString@@CUSHIM_1\n"));
  CHECK(contains(exported, " cublasLtGetStatusString@@CUSHIM_1\n"));
  CHECK_FALSE(contains(command_output("LC_ALL=C readelf -d '" + program + "'"), "[libcublas"));

  const std::string lib = "libcublas.so." + cuda_major, lt = "libcublasLt.so." + cuda_major;
  SUBCASE("the same copy: cushim reuses the cuBLAS the library brought in") {
    key_values out = run_calls_between(program, {{"LD_LIBRARY_PATH", fixtures + "/calls_between"}});
    CHECK(out.get("program_cublas") == "cuBLAS of calls_between");
    CHECK(out.get("cusolver_cublas") == "cuBLAS of calls_between via " + lib);
    CHECK(out.get("cublas_cublasLt") == "cuBLASLt of calls_between via " + lt);
  }
  SUBCASE("cushim refused that cuBLAS (another major): the program gets the fallback, the library its cuBLAS") {
    key_values out = run_calls_between(program, {{"LD_LIBRARY_PATH", fixtures + "/calls_between_refused"}});
    CHECK(starts_with(out.get("program_cublas"), "cushim: cuBLAS"));
    CHECK(out.get("cusolver_cublas") == "cuBLAS of calls_between_refused via " + lib);
    CHECK(starts_with(out.get("cublas_cublasLt"), "cushim: cuBLAS"));
  }
  SUBCASE("cushim chose another copy: the library of the CUDA major before keeps its own cuBLAS") {
    key_values out = run_calls_between(program, {{"LD_LIBRARY_PATH", fixtures + "/calls_between_previous"},
                                                 {"CUSHIM_CUBLAS_PATH", fixtures + "/calls_between"}});
    CHECK(out.get("program_cublas") == "cuBLAS of calls_between");
    CHECK(out.get("cusolver_cublas") ==
          "cuBLAS of calls_between_previous via libcublas.so." + std::to_string(CUDART_VERSION / 1000 - 1));
    CHECK(out.get("cublas_cublasLt") == "cuBLASLt of calls_between via " + lt);
  }
}

TEST_CASE("with -rdynamic every stub is exported, and the cuBLAS cushim loads still calls its own cuBLASLt") {
  const std::string program = CUSHIM_CALLS_BETWEEN_EXPORTED;
  CHECK(contains(command_output("LC_ALL=C readelf --dyn-syms -W '" + program + "'"),
                 " cublasLtGetStatusString@@CUSHIM_1\n"));
  key_values out =
      run_calls_between(program, {{"CUSHIM_CUBLAS_PATH", std::string(CUSHIM_FIXTURE_DIR) + "/calls_between"}});
  CHECK(out.get("program_cublas") == "cuBLAS of calls_between");
  CHECK(out.get("cublas_cublasLt") == "cuBLASLt of calls_between via libcublasLt.so." + cuda_major);
}

#if defined(CUSHIM_CUSOLVER) && defined(CUSHIM_CUSPARSE) && defined(CUSHIM_NVJITLINK)
namespace {

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Each import of the library at `path` that is versioned with an NVIDIA library's soname
// (cublasSgemm_v2@libcublas.so.13, __nvJitLinkCreate_13_0@libnvJitLink.so.13): name -> soname.
std::map<std::string, std::string> nvidia_imports(const std::string& path) {
  std::map<std::string, std::string> imports;
  std::istringstream lines(command_output("LC_ALL=C readelf --dyn-syms -W '" + path + "'"));
  const std::regex undefined(R"(\sUND\s+(\w+)@(lib(cu|nv)\w+\.so\.\d+)\b)");
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, undefined)) imports[m[1]] = m[2];
  }
  return imports;
}

// LD_DEBUG=bindings' lines, "binding file <from> [0] to <to> [0]: normal symbol `<name>'": for
// each file that bound a symbol, the file each of its names was bound to (base names).
std::map<std::string, std::map<std::string, std::string>> bindings_of(const std::string& debug) {
  std::map<std::string, std::map<std::string, std::string>> bound;
  std::istringstream lines(debug);
  const std::regex binding(R"(binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `(\w+)')");
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, binding)) bound[base_name(m[1])][m[3]] = base_name(m[2]);
  }
  return bound;
}

}  // namespace

// The real libraries of the toolkit: libcusolver imports cuBLAS, cuBLASLt and cuSPARSE functions,
// libcusparse nvJitLink's, libcublas cuBLASLt's, each versioned with the soname it was linked
// against. In a program that exports every stub (-rdynamic), each of those calls is bound to that
// library, none to the program's stubs (unversioned stubs would take every one of them).
TEST_CASE("the real cuSOLVER, cuSPARSE and cuBLAS call the libraries they were linked against, not the stubs") {
  const std::string program = CUSHIM_CALLS_BETWEEN_EXPORTED;
  const std::string lib_dir = CUSHIM_CUDA_LIB_DIR;
  const std::string exported = command_output("LC_ALL=C readelf --dyn-syms -W '" + program + "'");
  process_spec spec;
  spec.program = program;
  spec.args = {"cusolver"};
  spec.env["LD_LIBRARY_PATH"] = lib_dir;
  spec.env["LD_BIND_NOW"] = "1";  // every import bound as the library loads, called or not
  spec.env["LD_DEBUG"] = "bindings";
  process_result r = run_process(spec);
  INFO("stdout:\n" << r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "cusolverGetVersion=0\n"));
  const auto bound = bindings_of(r.err);
  const std::string program_file = base_name(program);
  std::size_t stubbed = 0;
  for (const std::string& file :
       {test_support::file_of(cushim::library::cusolver), test_support::file_of(cushim::library::cusparse),
        test_support::file_of(cushim::library::cublas)}) {
    CAPTURE(file);
    const std::map<std::string, std::string> imports = nvidia_imports(lib_dir + "/" + file);
    REQUIRE(!imports.empty());
    REQUIRE(bound.count(file));
    const std::map<std::string, std::string>& of_file = bound.at(file);
    std::vector<std::string> wrong;
    for (const auto& [name, soname] : imports) {
      auto it = of_file.find(name);
      if (it == of_file.end() || it->second != soname) {
        wrong.push_back(name + " -> " + (it == of_file.end() ? "<not bound>" : it->second));
      }
      // Where the program exports a stub of the name (every one a header declares), it does so
      // under cushim's version, and the library's call still reached the library it names.
      if (contains(exported, " " + name + "@")) {
        CHECK_MESSAGE(contains(exported, " " + name + "@@CUSHIM_1\n"), name);
        ++stubbed;
      }
    }
    std::string text;
    for (const std::string& w : wrong) text += " " + w;
    CHECK_MESSAGE(wrong.empty(), "bound elsewhere than " << file << "'s own dependencies:" << text);
    // Nothing of NVIDIA's is bound to the program (what is: its copies of libc's data, stderr).
    const std::regex nvidia_name("(cu|nv|__nv|nccl)\\w+");
    for (const auto& [name, to] : of_file) {
      if (std::regex_match(name, nvidia_name)) CHECK_MESSAGE(to != program_file, name << " bound to the program");
    }
  }
  // The program has stubs of 139 of cuSOLVER's 140 imports, all 8 of cuSPARSE's and 11 of cuBLAS's
  // 76 in CUDA 13.0 (the others are undeclared entry points: docs/supported-headers.md, "What the tables leave out").
  CHECK(stubbed > 150);
}
#endif

// The plain libraries (their records name a "missing_call"): the bad input every library gets, one
// scenario list for all (support/plain_libraries.hpp, generated; their fixtures: tests/CMakeLists.txt,
// "<key>_good", "<key>_wrong_major").
TEST_CASE("each plain library: a 32-bit copy, a text file, another major and another major's wheel are passed over") {
  for (const plain_library& t : plain_libraries()) {
    std::string title = t.title, key = t.key, file = t.file;
    CAPTURE(title);
    temp_tree tree;
    std::string empty = tree.make_dirs("empty");
    tree.write_file("i386/" + file, elf32_i386());
    tree.write_file("text/" + file, "this is not a library\n");
    std::string wheel = "venv/lib/python3.11/site-packages/nvidia/" + std::string(t.pip_package) + "/lib/" + file;
    std::string other = fixture_file(key + "_wrong_major", file);
    tree.copy_file(other, wheel);
    probe_call call;
    call.args = {"--search-dir",    tree.path("i386"), "--search-dir",
                 tree.path("text"), "--search-dir",    std::string(CUSHIM_FIXTURE_DIR) + "/" + key + "_wrong_major"};
    call.env["VIRTUAL_ENV"] = tree.path("venv");
    for (const char* importer : t.importers) call.env[importer] = empty;
    probe_output out = run_all(call);
    INFO(out.text);
    std::vector<attempt_line> attempts = attempts_of(out, key);
    REQUIRE(attempts.size() >= 5);
    CHECK(attempts[0].outcome == "wrong_architecture");
    CHECK(attempts[0].detail == "a 32-bit i386 library; this process is 64-bit x86-64");
    CHECK(attempts[1].outcome == "bad_format");
    CHECK(attempts[1].detail.rfind("not a shared library: ", 0) == 0);
    std::string refused =
        title + " " + t.release(t.other_major) + "; this program was compiled for major " + std::to_string(t.major);
    CHECK(attempts[2].outcome == "wrong_version");
    CHECK(attempts[2].path == other);
    CHECK(attempts[2].detail == refused);
    // After the executable's folder: the wheel, of another major.
    bool wheel_tried = false;
    for (const attempt_line& a : attempts) {
      if (a.path != tree.path(wheel)) continue;
      wheel_tried = true;
      CHECK(a.rule == "VIRTUAL_ENV pip nvidia/" + std::string(t.pip_package));
      CHECK(a.outcome == "wrong_version");
      CHECK(a.detail == refused);
    }
    CHECK(wheel_tried);
    // The toolkit's own copy, further down the search.
    CHECK(out.get(key + ".code") == "ok");
    CHECK(out.get(key + ".version") == std::to_string(t.headers_version));
  }
}

TEST_CASE("each plain library: an override to an empty folder, and a copy that lacks a function") {
  for (const plain_library& t : plain_libraries()) {
    std::string title = t.title, key = t.key, file = t.file;
    CAPTURE(title);
    temp_tree tree;
    std::string empty = tree.make_dirs("empty");
    probe_call call;
    call.env[t.override_variable] = empty;
    for (const char* importer : t.importers) call.env[importer] = empty;
    call.args = {"--call", t.missing_call};
    probe_output out = run_all(call);
    INFO(out.text);
    CHECK(out.get(key + ".code") == "override_failed");
    CHECK(out.all(key + ".attempt") ==
          std::vector<std::string>{std::string(t.override_variable) + "|" + empty + "/" + file + "|absent|"});
    CHECK(contains(out.rest, "  ERROR: " + std::string(t.title) + " was not loaded from the explicit location " +
                                 t.override_variable +
                                 " names; cushim does not fall back to a search when one is given\n"));
    // The library unavailable: its "unavailable" fallback, which differs from the "missing" one
    // where the library has two.
    CHECK(out.get("call." + t.missing_call) != "no such line");

    probe_call lacking;
    std::string good = std::string(CUSHIM_FIXTURE_DIR) + "/" + key + "_good";
    lacking.env[t.override_variable] = good;
    for (const char* importer : t.importers) lacking.env[importer] = empty;
    lacking.args = {"--call", t.missing_call};
    out = run_all(lacking);
    INFO(out.text);
    CHECK(out.get(key + ".code") == "ok");
    CHECK(out.get(key + ".version") == std::to_string(t.headers_version));
    CHECK(out.get("call." + t.missing_call) == std::to_string(t.missing));
    CHECK(contains(out.rest, t.missing_call + " is not in " + good + "/" + file + " (" + t.release(t.major) +
                                 "); it returns " + t.missing_name));
  }
}
