// Compile-time subject: the same TU through cushim's public header.
#include <cushim/cushim.hpp>

size_t bench_use() { return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr); }
