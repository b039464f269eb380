// The one CUSHIM_IMPLEMENTATION file of the kernel programs: a .cpp, compiled by the host compiler.
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
