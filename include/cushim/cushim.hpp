// cushim: load cuDNN and the CUDA runtime at run time, explain every failure.
//
// Include this header wherever the application calls cudnn* or cuda* functions, define
// CUSHIM_IMPLEMENTATION in exactly one .cpp before including it, and stop linking
// -lcudnn -lcudart. Every call then goes through a lazily resolved function pointer; when a
// library cannot be used the call returns a defined error code and cushim::explain() says why.
//
// Two public headers:
//   <cushim/cushim.hpp>  this one: NVIDIA's headers, the enums, available(), error_of() and
//                        to_string(). It includes no standard library header, so a TU pays for
//                        it no more than for <cudnn.h> and <cuda_runtime_api.h> alone.
//   <cushim/status.hpp>  configure() and options, status_of() and status, explain(),
//                        explain_json(): everything that holds a std::string or std::vector.
// With CUSHIM_IMPLEMENTATION defined, either header brings in everything.
//
// Configuration macros (define before including, the same in every TU):
//   CUSHIM_IMPLEMENTATION  in one .cpp: defines the API and the exported cudnn*/cuda* stubs.
//   CUSHIM_NO_CUDART       shim cuDNN only (the app links cudart_static, nvcc's default).
//   CUSHIM_CUDART_CORE     shim only the core CUDA runtime subset (device, memory, stream,
//                          event, error, version), for CUDA 12.0 headers (older than every
//                          12.x manifest; docs/supported-headers.md, "Supported headers").
//   CUSHIM_CUBLAS, ...     also shim an opt-in library, one macro each (README.md, "Macros"):
//                          include its header before cushim (the implementation file includes the
//                          headers that come with it itself). Without it nothing of it is declared.
//   CUSHIM_USE_BOOST_DLL   in the implementation TU: load through boost::dll::shared_library
//                          (header-only Boost.DLL) instead of dlopen / LoadLibraryExW.
#pragma once

// What no test here has built: the portable stubs use GCC's __atomic builtins, which clang-cl has
// and cl.exe does not (docs/windows.md, "Compilers"). The other files of a program may use cl.exe.
#if defined(CUSHIM_IMPLEMENTATION) && defined(_MSC_VER) && !defined(__clang__)
#error "cushim: MSVC's cl.exe cannot compile the CUSHIM_IMPLEMENTATION file; compile that one file with clang-cl (Visual Studio: Platform Toolset \"LLVM (clang-cl)\" for it) or with MinGW-w64, and the rest of the program with cl.exe as before"
#endif

// The implementation TU reads the runtime's header without the per-thread default-stream renames
// (CUDA_API_PER_THREAD_DEFAULT_STREAM, nvcc --default-stream per-thread): libcudart exports
// cudaMemcpy and cudaMemcpy_ptds alike, other files may call either, and each table line defines
// the stub of its own name.
#if defined(CUSHIM_IMPLEMENTATION) && defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#pragma push_macro("CUDA_API_PER_THREAD_DEFAULT_STREAM")
#undef CUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime_api.h>
#pragma pop_macro("CUDA_API_PER_THREAD_DEFAULT_STREAM")
#ifdef __CUDART_API_PER_THREAD_DEFAULT_STREAM
#error \
    "cushim: CUDA_API_PER_THREAD_DEFAULT_STREAM is defined and a CUDA header was included before cushim in the CUSHIM_IMPLEMENTATION file; include <cushim/cushim.hpp> first there (it then defines cudaLaunchKernel and cudaLaunchKernel_ptsz alike), and make that file a .cpp, since nvcc includes cuda_runtime.h before any .cu file's own lines"
#endif
#endif
#include "detail/types/nvidia_headers.hpp"  // <cuda_runtime_api.h>, <cudnn.h>

#define CUSHIM_VERSION_MAJOR 0
#define CUSHIM_VERSION_MINOR 1
#define CUSHIM_VERSION_PATCH 0

// cushim::library (each library cushim loads, library_count), version_policy, error_code (why a
// library is unavailable; docs/errors.md, "Error codes") and to_string() of library and error_code.
#include "detail/types/library_enums.hpp"

namespace cushim {

// Loads the library on first use; true when its calls reach the real library. Never throws.
bool available(library lib);

// Why the library is unavailable (error_code::ok when it is usable); status_of(lib).code without
// <cushim/status.hpp>. Loads on first use. Never throws.
error_code error_of(library lib);

}  // namespace cushim

// In the one implementation TU, the next public header on the way to the implementation
// (diagnostics.hpp enters it).
#ifdef CUSHIM_IMPLEMENTATION
#include "status.hpp"
#endif
