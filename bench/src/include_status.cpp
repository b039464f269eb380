// Compile-time subject for the TUs that configure cushim or report on it: the same TU through
// <cushim/status.hpp> (options, status, explain: <string>, <string_view>, <vector>).
#include <cushim/status.hpp>

size_t bench_use() { return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr); }
