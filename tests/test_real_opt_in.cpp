// The real cuBLAS, cuBLASLt and NVRTC of this machine's toolkit, and its NVIDIA driver or the lack
// of one, reached through the shim by a program that opts into them and links none of them. NVRTC
// needs no GPU: it really compiles, and its PTX must equal a directly linked program's.
#include <doctest/doctest.h>

#include "support/opt_in_headers.hpp"

#include <cushim/diagnostics.hpp>  // CUSHIM_IMPLEMENTATION: support/implementation_opted_in.cpp

#include <cushim/detail/tables/api_tables.hpp>
#include <cushim/detail/platform/platform.hpp>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/elf_exports.hpp"
#include "support/left_out_exports.hpp"
#include "support/library_files.hpp"
#include "support/nvrtc_kernel.hpp"
#include "support/plain_libraries.hpp"
#ifdef CUSHIM_LIBRARY_WORK
#include "support/library_work.hpp"
#endif
#include "support/process.hpp"
#include "support/temp_tree.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string real_path(const std::string& path) {
  char* r = realpath(path.c_str(), nullptr);
  std::string out = r ? r : "";
  std::free(r);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What direct_calls (linked with -lcublas -lnvrtc) printed, and the PTX it wrote.
struct direct_results {
  test_support::key_values printed;
  std::string ptx;
};

const direct_results& direct() {
  static const direct_results results = [] {
    test_support::temp_tree tree;
    test_support::process_spec spec;
    spec.program = CUSHIM_DIRECT_CALLS;
    spec.args = {tree.path("direct.ptx")};
    spec.timeout = std::chrono::seconds(60);
    test_support::process_result r = test_support::run_process(spec);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    return direct_results{test_support::parse_key_values(r.out), read_file(tree.path("direct.ptx"))};
  }();
  return results;
}

bool driver_present() { return cushim::diagnostics::driver().found; }

}  // namespace

TEST_CASE("the program links no cuBLAS, cuBLASLt, NVRTC or driver library") {
  std::string dynamic = test_support::command_output("readelf -d /proc/" + std::to_string(getpid()) + "/exe");
  REQUIRE(contains(dynamic, "NEEDED"));  // readelf ran
  for (const char* library : {"libcublas", "libnvrtc", "libcuda.", "libcudnn", "libcudart"}) {
    CHECK_MESSAGE(!contains(dynamic, library), library);
  }
}

TEST_CASE("nvrtcVersion gives the toolkit's NVRTC, and the status says where it came from") {
  int major = -1, minor = -1;
  REQUIRE(nvrtcVersion(&major, &minor) == NVRTC_SUCCESS);
  CHECK(major == CUDART_VERSION / 1000);
  const cushim::status& st = cushim::status_of(cushim::library::nvrtc);
  CHECK(st.code == cushim::error_code::ok);
  CHECK(st.version == major * 1000 + minor * 10);
  CHECK(st.version_source == "nvrtcVersion");
  CHECK(real_path(st.path) == real_path(std::string(CUSHIM_CUDA_LIB_DIR) + "/" + CUSHIM_NVRTC_FILE));
  // Its builtins, which it loads by name: found where the system loader finds them.
  REQUIRE(st.sublibraries.size() == 1);
  const cushim::sublibrary& builtins = st.sublibraries[0];
  std::string name = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
  CHECK(builtins.file_name == name);
  CHECK(builtins.usable);
  CHECK_FALSE(builtins.preloaded);
  CHECK(builtins.path == test_support::ldconfig_path_of(name));
  CHECK(st.problems.empty());
}

TEST_CASE("nvrtcCompileProgram compiles through cushim to the PTX a directly linked program gets") {
  test_support::ptx_result shimmed = test_support::compile_saxpy();
  INFO("log: " << shimmed.log);
  REQUIRE(shimmed.create == NVRTC_SUCCESS);
  REQUIRE(shimmed.compile == NVRTC_SUCCESS);
  REQUIRE(shimmed.get == NVRTC_SUCCESS);
  CHECK(contains(shimmed.ptx, ".visible .entry saxpy("));
  CHECK(direct().printed.get("nvrtcCompileProgram") == "0");
  CHECK(shimmed.ptx.size() == direct().ptx.size());
  CHECK(shimmed.ptx == direct().ptx);
}

TEST_CASE("cublasCreate returns what the real cuBLAS returns, and cuBLAS runs with its own cuBLASLt") {
  cublasHandle_t handle = nullptr;
  cublasStatus_t created = cublasCreate(&handle);
  if (created == CUBLAS_STATUS_SUCCESS) cublasDestroy(handle);
  CHECK(std::to_string(int(created)) == direct().printed.get("cublasCreate"));
  if (!driver_present()) CHECK(created == CUBLAS_STATUS_NOT_INITIALIZED);  // the real library's answer without a GPU
  const cushim::status& blas = cushim::status_of(cushim::library::cublas);
  const cushim::status& lt = cushim::status_of(cushim::library::cublasLt);
  CHECK(blas.code == cushim::error_code::ok);
  CHECK(blas.version == CUBLAS_VERSION);
  CHECK(real_path(blas.path) == real_path(std::string(CUSHIM_CUDA_LIB_DIR) + "/" + CUSHIM_CUBLAS_FILE));
  CHECK(lt.code == cushim::error_code::ok);
  CHECK(cublasLtGetVersion() == CUBLAS_VERSION);
  CHECK(lt.version == CUBLAS_VERSION);
  // cuBLAS brought its cuBLASLt in as an import: cushim reuses that copy.
  CHECK(lt.found_by == "already loaded in this process");
  CHECK(real_path(lt.path) == real_path(std::string(CUSHIM_CUDA_LIB_DIR) + "/" + CUSHIM_CUBLASLT_FILE));
}

TEST_CASE("without a driver, cuInit returns the fallback and both driver sections agree") {
  if (driver_present()) {
    MESSAGE("an NVIDIA driver is present: the no-driver checks do not apply");
    CHECK(cuInit(0) != CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
    CHECK(cushim::status_of(cushim::library::driver).path == cushim::diagnostics::driver().path);
    return;
  }
  CHECK(cuInit(0) == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
  const cushim::status& st = cushim::status_of(cushim::library::driver);
  CHECK(st.code == cushim::error_code::not_found);
  std::string text = cushim::explain();
  std::string places = std::to_string(st.attempts.size());
  CHECK(contains(text, "no NVIDIA driver was found: libcuda.so.1 is in none of the " + places +
                           " places the system loader looks"));
  CHECK(contains(text, "  ERROR: CUDA driver API " + std::to_string(CUDA_VERSION / 1000) +
                           " is unavailable: no usable libcuda.so.1 in " + places + " places searched\n"));
  // Only where the system installs the driver: never CUDA_PATH, a toolkit folder or the
  // executable's folder.
  for (const cushim::attempt& a : st.attempts) {
    INFO(a.rule << ": " << a.path);
    CHECK((a.rule.rfind("LD_LIBRARY_PATH[", 0) == 0 || a.rule == "ld.so.cache" || a.rule == "system folder"));
  }
}

TEST_CASE("explain_json lists every opted-in library, each as status_of() gives it") {
  std::string json = cushim::explain_json();
  for (cushim::library lib : cushim::diagnostics::libraries()) {
    const cushim::status& st = cushim::status_of(lib);
    std::string entry = "{\"library\":\"" + std::string(cushim::to_string(lib)) +
                        "\",\"available\":" + (st.code == cushim::error_code::ok ? "true" : "false") + ",\"code\":\"" +
                        cushim::to_string(st.code) + "\"";
    CHECK_MESSAGE(contains(json, entry), entry);
  }
  CHECK(cushim::diagnostics::libraries().size() == CUSHIM_SHIMMED_LIBRARY_COUNT);
}

// --- Every table against its library's exports (docs/supported-headers.md, "What the tables leave out") ----------
namespace {

// The functions of every table this program's headers select, and cublas.h's legacy table, which a
// program including cublas_v2.h cannot select (test_cublas_legacy compiles it).
struct table_function {
  cushim::library lib;
  const char* name;
};
const std::vector<table_function>& table_functions() {
  static const std::vector<table_function> functions = [] {
    std::vector<table_function> all;  // statements: library_tables.inc has #pragmas
#define CUSHIM_API(lib, group, ret, name, params, args) all.push_back({cushim::library::lib, CUSHIM_NAME_TEXT(name)});
#define CUSHIM_API_DECLARED(lib, group, ret, name, params, args, declared, arity) \
  all.push_back({cushim::library::lib, CUSHIM_NAME_TEXT(name)});
#include <cushim/detail/tables/library_tables.inc>
#include CUSHIM_CUBLAS_LEGACY_TABLE
#undef CUSHIM_API
#undef CUSHIM_API_DECLARED
    return all;
  }();
  return functions;
}

// The exports no table holds, on purpose, and the functions a table holds that its library does not
// export: support/left_out_exports.hpp, generated from each library's record. The driver's
// per-thread variants and every export of an older ABI are rules of their own (below).
using test_support::declared_not_exported;
using test_support::left_out;
using test_support::undeclared_exports;

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " ") + name;
  return text;
}

bool matches(const std::vector<left_out>& rules, cushim::library lib, const std::string& name) {
  for (const left_out& l : rules) {
    if (l.lib == lib && std::regex_match(name, std::regex(l.names))) return true;
  }
  return false;
}

// "cuMemAlloc" for "cuMemAlloc_v2": a name and the version its suffix gives (1 without one).
std::pair<std::string, int> versioned(const std::string& name) {
  std::smatch m;
  if (std::regex_match(name, m, std::regex("(\\w+?)_v([0-9]+)"))) return {m[1], std::stoi(m[2])};
  return {name, 1};
}

// The file of each library whose exports the table must hold: the copy cushim loaded, and for
// the driver, which no machine without a GPU has, the toolkit's link stub of it.
std::string library_file(cushim::library lib) {
  if (lib == cushim::library::driver) return std::string(CUSHIM_CUDA_LIB_DIR) + "/stubs/libcuda.so";
  REQUIRE(cushim::available(lib));
  return cushim::status_of(lib).path;
}

}  // namespace

TEST_CASE("every table holds its library's exports, but for what README lists as left out on purpose") {
  for (cushim::library lib : cushim::diagnostics::libraries()) {
#ifdef CUSHIM_NVML
    // NVML is the driver's: a machine without one has no libnvidia-ml.so.1, and the toolkit no stub
    // of it (docs/supported-headers.md, "What the tables leave out": not checked here).
    if (lib == cushim::library::nvml && !cushim::available(lib)) continue;
#endif
    const std::string path = library_file(lib);
    INFO(cushim::to_string(lib) << ": " << path);
    cushim::detail::platform::file_source file(path);
    REQUIRE_MESSAGE(file.ok(), file.error());
    const test_support::elf_exports read = test_support::read_elf_exports(file);
    REQUIRE_MESSAGE(read.ok, read.error);
    std::set<std::string> exports;
    for (const std::string& name : read.names) {
      if (name.find('.') == std::string::npos) exports.insert(name);  // not the version node (libcudnn.so.9)
    }
    std::set<std::string> table;
    std::map<std::string, int> newest;  // of each name, the highest _vN the table holds
    for (const table_function& f : table_functions()) {
      if (f.lib != lib) continue;
      table.insert(f.name);
      auto [base, v] = versioned(f.name);
      newest[base] = std::max(newest[base], v);
    }
    REQUIRE(table.size() > 10);  // nvJitLink's is the smallest: 14
    std::vector<std::string> missing, unexported, unused_rules;
    for (const std::string& name : exports) {
      if (table.count(name)) continue;
      const bool per_thread = lib == cushim::library::driver && std::regex_match(name, std::regex("\\w+_pt(ds|sz)"));
      auto [base, v] = versioned(name);
      const bool older_abi = newest.count(base) && newest[base] > v;  // the headers rename it to a newer _vN
      if (!per_thread && !older_abi && !matches(undeclared_exports, lib, name)) missing.push_back(name);
    }
    for (const std::string& name : table) {
      if (!exports.count(name) && !matches(declared_not_exported, lib, name)) unexported.push_back(name);
    }
    for (const left_out& l : undeclared_exports) {
      if (l.lib != lib) continue;
      bool used = false;
      for (const std::string& name : exports) used = used || std::regex_match(name, std::regex(l.names));
      if (!used) unused_rules.push_back(l.names);
    }
    CHECK_MESSAGE(missing.empty(), "exported, in no table: " << joined(missing));
    CHECK_MESSAGE(unexported.empty(), "in a table, not exported: " << joined(unexported));
    CHECK_MESSAGE(unused_rules.empty(), "left-out rules that match no export: " << joined(unused_rules));
  }
}

namespace {

void check_plain_library(cushim::library lib, long version) {
  const cushim::status& st = cushim::status_of(lib);
  CAPTURE(cushim::to_string(lib));
  CHECK(st.code == cushim::error_code::ok);
  CHECK(st.version == version);
  CHECK(st.compiled_version == version);
  CHECK(real_path(st.path) == real_path(std::string(CUSHIM_CUDA_LIB_DIR) + "/" + test_support::file_of(lib)));
  CHECK(st.problems.empty());
}

}  // namespace

// The plain libraries (support/plain_libraries.hpp, generated from their records): each version
// function, called through cushim, gives the headers' version, and explain() writes it as the
// headers' release.
TEST_CASE("each plain library gives its real version through cushim") {
  for (const test_support::plain_library& l : test_support::plain_libraries()) {
    CAPTURE(l.key);
    CHECK(test_support::reported_version(l.lib) == l.headers_version);
    check_plain_library(l.lib, l.headers_version);
    CHECK(cushim::diagnostics::version_text(l.lib, l.headers_version) == l.release(l.major));
  }
}

// What the plain libraries do without a GPU (support/library_work.hpp), where this build links them
// all in direct_calls too (tests/CMakeLists.txt defines CUSHIM_LIBRARY_WORK).
#ifdef CUSHIM_LIBRARY_WORK
TEST_CASE("without a GPU the libraries' own answers come back, a host generator draws and nvJitLink links a cubin") {
  test_support::ptx_result ptx = test_support::compile_saxpy();
  REQUIRE(ptx.compile == NVRTC_SUCCESS);
  test_support::work_results shimmed = test_support::library_work(ptx.ptx);
  for (const auto& [key, value] : shimmed) {
    CAPTURE(key);
    CHECK(value == direct().printed.get(key));
  }
  // nvJitLink links NVRTC's PTX into a cubin, an ELF file, without a GPU.
  CHECK(shimmed["nvJitLinkComplete"] == "0");
  CHECK(shimmed["cubin_magic"] == "7f454c46");
  CHECK(std::stoul(shimmed["cubin_bytes"]) > 1000);
  // A host generator draws on the CPU: four numbers in (0, 1].
  CHECK(shimmed["curandGenerateUniform"] == "0");
  CHECK(shimmed["host_draws"].size() == 39);
  if (!driver_present()) {
    // The libraries' own refusals: not cushim's fallbacks, which only an unusable library gets.
    for (const test_support::plain_library& l : test_support::plain_libraries()) {
      CAPTURE(l.key);
      CHECK(cushim::status_of(l.lib).code == cushim::error_code::ok);
    }
    CHECK(shimmed["curandCreateGenerator"] != "0");
    CHECK(shimmed["cusparseCreate"] != "0");
    CHECK(shimmed["cusolverDnCreate"] != "0");
  }
}

TEST_CASE("a function the headers declare and the library does not export gets the fallback and is named") {
  // cuRAND 13.0's curand.h declares curandGenerateBinomial; libcurand.so.10 does not export it.
  unsigned int out = 0;
  CHECK(curandGenerateBinomial(nullptr, &out, 1, 1, 0.5) == CURAND_STATUS_VERSION_MISMATCH);
  // cuSPARSE 13.0 declares the *_bufferSizeExt family; libcusparse.so.12 exports none of it.
  std::size_t size = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // as the legacy API is
  CHECK(cusparseScsrilu02_bufferSizeExt(nullptr, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, &size) ==
        CUSPARSE_STATUS_NOT_SUPPORTED);
#pragma GCC diagnostic pop
  const cushim::status& st = cushim::status_of(cushim::library::curand);
  CHECK(st.code == cushim::error_code::ok);
  std::string text = cushim::explain();
  CHECK(contains(text, "curandGenerateBinomial is not in " + st.path + " (" +
                           cushim::diagnostics::version_text(cushim::library::curand, st.version) +
                           "); it returns CURAND_STATUS_VERSION_MISMATCH"));
  CHECK(contains(text, "cusparseScsrilu02_bufferSizeExt is not in "));
  CHECK(contains(cushim::explain_json(), "\"missing_functions\":[\"curandGenerateBinomial\"]"));
}
#endif
