// Which tables api_tables.hpp picks for the version macros given with -D (no NVIDIA header is
// included, so the selection is included without api_tables.hpp, which brings them). EXPECT_<LIB>_MAJOR names the table
// each library must get; an opt-in library without one must get none. Each picked table must preprocess with those
// macros.
#include <cushim/api/table_versions.hpp>
#include <cushim/api/table_selection.inc>

#if CUSHIM_CUDNN_MAJOR != EXPECT_CUDNN_MAJOR
#error "api_tables.hpp picked another cuDNN table"
#endif
#if CUSHIM_CUDART_MAJOR != EXPECT_CUDART_MAJOR
#error "api_tables.hpp picked another CUDA runtime table"
#endif

#define CUSHIM_API(library, group, ret, name, params, args)
#define CUSHIM_API_DECLARED(library, group, ret, name, params, args, declared, arity)
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE

#ifdef EXPECT_CUBLAS_MAJOR
#if CUSHIM_CUBLAS_MAJOR != EXPECT_CUBLAS_MAJOR || CUSHIM_CUBLASLT_MAJOR != EXPECT_CUBLAS_MAJOR
#error "api_tables.hpp picked another cuBLAS table"
#endif
#include CUSHIM_CUBLAS_TABLE
#include CUSHIM_CUBLASLT_TABLE
#elif defined(CUSHIM_CUBLAS_TABLE) || defined(CUSHIM_CUBLASLT_TABLE)
#error "api_tables.hpp picked a cuBLAS table without CUSHIM_CUBLAS"
#endif

#ifdef EXPECT_NVRTC_MAJOR
#if CUSHIM_NVRTC_MAJOR != EXPECT_NVRTC_MAJOR
#error "api_tables.hpp picked another NVRTC table"
#endif
#include CUSHIM_NVRTC_TABLE
#elif defined(CUSHIM_NVRTC_TABLE)
#error "api_tables.hpp picked an NVRTC table without CUSHIM_NVRTC"
#endif

#ifdef EXPECT_CUDA_DRIVER_MAJOR
#if CUSHIM_CUDA_DRIVER_MAJOR != EXPECT_CUDA_DRIVER_MAJOR
#error "api_tables.hpp picked another driver API table"
#endif
#include CUSHIM_CUDA_DRIVER_TABLE
#elif defined(CUSHIM_CUDA_DRIVER_TABLE)
#error "api_tables.hpp picked a driver API table without CUSHIM_CUDA_DRIVER"
#endif

// Any other library: -DEXPECT_LIBRARY=<STEM> -DEXPECT_MAJOR=<major> (its table macros' stem:
// CUSHIM_<STEM>_MAJOR, CUSHIM_<STEM>_TABLE), and -DEXPECT_NAME=<name> for the name
// CUSHIM_<STEM>_NAME(EXPECT_BASE) must give ("release_suffix"). The stem is pasted after CUSHIM_ in
// one step, as <library>_MAJOR and CUSHIM_<STEM> can be macros of their own.
#ifdef EXPECT_LIBRARY
#define SELECTED_(stem, what) CUSHIM_##stem##what
#define SELECTED_EXPANDED(stem, what) SELECTED_(stem, what)
#define SELECTED(what) SELECTED_EXPANDED(EXPECT_LIBRARY, what)
#if SELECTED(_MAJOR) != EXPECT_MAJOR
#error "api_tables.hpp picked another table"
#endif
#include SELECTED(_TABLE)
#ifdef EXPECT_NAME
constexpr bool same_text(const char* a, const char* b) { return *a == *b && (!*a || same_text(a + 1, b + 1)); }
static_assert(same_text(CUSHIM_NAME_TEXT(SELECTED(_NAME)(EXPECT_BASE)), CUSHIM_NAME_TEXT(EXPECT_NAME)),
              "the release completes another name");
#endif
#endif

int main() { return 0; }
