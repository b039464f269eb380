// The one translation unit of a cushim program that defines the API and the exported stubs.
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
