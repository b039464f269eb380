// The file cushim searches for per library, as the test build names it (tests/CMakeLists.txt,
// tests/windows/CMakeLists.txt pass them): the fixtures are built under these names.
#pragma once

#include <cushim/cushim.hpp>

#include <string>

namespace test_support {

inline std::string file_of(cushim::library lib) {
  switch (lib) {
    case cushim::library::cudart: return CUSHIM_CUDART_FILE;
    case cushim::library::cudnn: return CUSHIM_CUDNN_FILE;
    case cushim::library::cublas: return CUSHIM_CUBLAS_FILE;
    case cushim::library::cublasLt: return CUSHIM_CUBLASLT_FILE;
    case cushim::library::nvrtc: return CUSHIM_NVRTC_FILE;
    case cushim::library::driver: return CUSHIM_DRIVER_FILE;
  }
  return {};
}

// to_string(library), for programs that are not the implementation TU.
inline std::string key_of(cushim::library lib) {
  switch (lib) {
    case cushim::library::cudart: return "cudart";
    case cushim::library::cudnn: return "cudnn";
    case cushim::library::cublas: return "cublas";
    case cushim::library::cublasLt: return "cublasLt";
    case cushim::library::nvrtc: return "nvrtc";
    case cushim::library::driver: return "driver";
  }
  return {};
}

// The driver has no override: a test loads its copy first, and cushim reuses the copy in the process.
inline bool has_override(cushim::library lib) { return lib != cushim::library::driver; }

}  // namespace test_support
