// The application's one CUSHIM_IMPLEMENTATION translation unit with CUSHIM_NO_CUDART (cuDNN only,
// for programs that link the CUDA runtime themselves). Compiled once and linked into each test
// program of that configuration (tests/CMakeLists.txt).
#define CUSHIM_NO_CUDART
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
