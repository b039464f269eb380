// The CUSHIM_IMPLEMENTATION translation unit of the programs of cublas.h's legacy API
// (test_cublas_legacy, cublas_legacy_calls): cuBLAS opted into with cublas.h, where the other
// programs include cublas_v2.h, so the legacy table is in use (tests/CMakeLists.txt).
#include "opt_in_headers.hpp"

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
