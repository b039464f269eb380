// Calls every stub of the tables in use with null pointers and zeros and checks it returned the
// documented fallback for "library unavailable": shared by the Linux and Windows suites.
#pragma once

#include <cushim/cushim.hpp>
#include <cushim/detail/api_tables.hpp>

#include "table_declarations.hpp"

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace test_support {

inline const char* cudnn_text = "cushim: cuDNN is unavailable; cushim::explain() says why and what to do";
inline const char* cudart_text = "cushim: the CUDA runtime is unavailable; cushim::explain() says why and what to do";

struct fallback_checker {
  std::vector<std::string> failures;
  int checked = 0;

  // Null pointers and zeros: a fallback must not touch what it is given.
  template <class R, class... A>
  void operator()(const char* name, R (*function)(A...)) {
    ++checked;
    if constexpr (std::is_void_v<R>) {
      function(A{}...);
    } else {
      R result = function(A{}...);
      if (!expected(name, result)) failures.push_back(name);
    }
  }

  template <class R>
  bool expected(const char* name, R result) {
    if constexpr (std::is_same_v<R, cudnnStatus_t>) {
      return result == CUDNN_STATUS_NOT_INITIALIZED;
    } else if constexpr (std::is_same_v<R, cudaError_t>) {
      return result == cudaErrorSharedObjectInitFailed;
    } else if constexpr (std::is_same_v<R, const char*>) {
      return std::strcmp(result, std::strncmp(name, "cudnn", 5) == 0 ? cudnn_text : cudart_text) == 0;
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

// Every function of the cuDNN and CUDA runtime tables in use, once.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the tables include deprecated calls
inline fallback_checker check_every_stub(int& table_lines) {
  fallback_checker check;
  table_lines = 0;
#define CUSHIM_API(lib, group, ret, name, params, args) (++table_lines, check(#name, &name));
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE
#undef CUSHIM_API
  return check;
}
#pragma GCC diagnostic pop

}  // namespace test_support
