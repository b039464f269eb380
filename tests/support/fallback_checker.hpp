// Calls every stub of the tables in use with null pointers and zeros and checks it returned the
// documented fallback for "library unavailable": shared by the Linux and Windows suites. Include
// the opted-in libraries' headers first (support/opt_in_headers.hpp).
#pragma once

#include <cushim/cushim.hpp>
#include <cushim/detail/tables/api_tables.hpp>

#include "library_answers.hpp"
#include "table_declarations.hpp"

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace test_support {

inline const char* cudnn_text = "cushim: cuDNN is unavailable; cushim::explain() says why and what to do";
inline const char* cudart_text = "cushim: the CUDA runtime is unavailable; cushim::explain() says why and what to do";
inline const char* cublas_text = "cushim: cuBLAS is unavailable; cushim::explain() says why and what to do";
inline const char* cublaslt_text = "cushim: cuBLASLt is unavailable; cushim::explain() says why and what to do";
inline const char* nvrtc_text = "cushim: NVRTC is unavailable; cushim::explain() says why and what to do";
inline const char* driver_text =
    "cushim: the CUDA driver API is unavailable; cushim::explain() says why and what to do";

struct fallback_checker {
  std::vector<std::string> failures;
  int checked = 0;

  // Null pointers and zeros: a fallback must not touch what it is given.
  template <class R, class... A>
  void operator()(cushim::library lib, const char* name, R (*function)(A...)) {
    ++checked;
    if constexpr (std::is_void_v<R>) {
      function(A{}...);
    } else {
      R result = function(A{}...);
      if (!expected(lib, result)) failures.push_back(name);
    }
  }

  // The documented fallback of each status type (docs/errors.md, "Error codes"; tools/libraries.json).
  template <class R>
  bool expected(cushim::library lib, R result) {
    if (int status = unavailable_status(result); status >= 0) {
      return status == 1;
    } else if constexpr (std::is_same_v<R, const char*>) {
      return std::strcmp(result, unavailable_text(lib)) == 0;
    } else if constexpr (std::is_same_v<R, std::size_t>) {
      return result == 0;
    } else if constexpr (std::is_same_v<R, void**>) {
      return result != nullptr;  // __cudaRegisterFatBinary's handle, which the other fallbacks accept
    } else {
      R zero{};
      return std::memcmp(&result, &zero, sizeof(R)) == 0;
    }
  }
};

// Every function of every table in use (each library this build shims), once.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls
inline fallback_checker check_every_stub(int& table_lines) {
  fallback_checker check;
  table_lines = 0;
// The table's prototype picks the C function where <cublas_api.h> adds C++ overloads of its name.
#define CUSHIM_API(lib, group, ret, name, params, args) \
  (++table_lines, check(cushim::library::lib, CUSHIM_NAME_TEXT(name), static_cast<ret(*) params>(&name)));
#include <cushim/detail/tables/library_tables.inc>
#undef CUSHIM_API
  return check;
}
#pragma GCC diagnostic pop

}  // namespace test_support
