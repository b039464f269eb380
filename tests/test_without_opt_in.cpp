// A program that opts into nothing: cuBLAS, cuBLASLt, NVRTC and the driver API are `disabled`,
// never loaded and left out of every report; no header of theirs is included and no function of
// theirs is exported, so a program that links them itself is unaffected.
#include <doctest/doctest.h>
#include <dlfcn.h>

#include <cushim/diagnostics.hpp>  // CUSHIM_IMPLEMENTATION: support/implementation_default.cpp

#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/library_files.hpp"

// Here for the headers this file includes; support/implementation_default.cpp checks the same for
// the implementation's.
#if defined(CUBLAS_VER_MAJOR) || defined(CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA) || defined(__NVRTC_H__) || \
    defined(CUDA_VERSION)
#error "cushim included a header of a library this program did not opt into"
#endif

namespace {

const cushim::library opt_in[] = {cushim::library::cublas, cushim::library::cublasLt, cushim::library::nvrtc,
                                  cushim::library::driver};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the opt-in libraries are disabled and never loaded") {
  REQUIRE(cushim::available(cushim::library::cudnn));
  for (cushim::library lib : opt_in) {
    INFO(cushim::to_string(lib));
    CHECK_FALSE(cushim::available(lib));
    CHECK(cushim::error_of(lib) == cushim::error_code::disabled);
    const cushim::status& st = cushim::status_of(lib);
    CHECK(st.code == cushim::error_code::disabled);
    CHECK(st.attempts.empty());
    CHECK(st.path.empty());
    std::string file = test_support::file_of(lib);
    CHECK(dlopen(file.c_str(), RTLD_NOW | RTLD_NOLOAD) == nullptr);
  }
  CHECK(std::string(cushim::to_string(cushim::library::cublasLt)) == "cublasLt");
  CHECK(std::string(cushim::to_string(cushim::library::driver)) == "driver");
}

TEST_CASE("they are left out of explain(), explain_json(), the problems and the library list") {
  CHECK(cushim::diagnostics::libraries() ==
        std::vector<cushim::library>{cushim::library::cudart, cushim::library::cudnn});
  std::string text = cushim::explain();
  CHECK(text.rfind("cushim 0.1.0: the CUDA runtime and cuDNN as this process sees them\n", 0) == 0);
  for (const char* title : {"\ncuBLAS", "\ncuBLASLt", "\nNVRTC", "\nCUDA driver API", "not shimmed"}) {
    CHECK_MESSAGE(!contains(text, title), title);
  }
  std::string json = cushim::explain_json();
  for (const char* key : {"\"cublas\"", "\"cublasLt\"", "\"nvrtc\"", "\"library\":\"driver\""}) {
    CHECK_MESSAGE(!contains(json, key), key);
  }
  for (const cushim::diagnostics::reported_problem& p : cushim::diagnostics::problems()) {
    CHECK((p.section == "driver" || p.section == "cudart" || p.section == "cudnn"));
  }
}

TEST_CASE("no function of theirs is exported") {
  std::string symbols = test_support::own_defined_symbols();
  REQUIRE(contains(symbols, " T cudnnCreate\n"));
  for (const char* name : {" T cublas", " T nvrtc", " T cuInit\n", " T cuDriverGetVersion\n", " T cuMemAlloc"}) {
    CHECK_MESSAGE(!contains(symbols, name), name);
  }
}
