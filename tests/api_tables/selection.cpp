// Which tables api_tables.hpp picks for the version macros given with -D (no NVIDIA header is
// included). EXPECT_<LIB>_MAJOR names the table each library must get; a library without one
// must get none. Each picked table must preprocess with those macros.
#include <cushim/detail/api_tables.hpp>

#if CUSHIM_CUDNN_MAJOR != EXPECT_CUDNN_MAJOR
#error "api_tables.hpp picked another cuDNN table"
#endif
#if CUSHIM_CUDART_MAJOR != EXPECT_CUDART_MAJOR
#error "api_tables.hpp picked another CUDA runtime table"
#endif

#define CUSHIM_API(library, group, ret, name, params, args)
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE

int main() { return 0; }
