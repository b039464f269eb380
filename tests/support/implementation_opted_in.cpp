// The application's one CUSHIM_IMPLEMENTATION translation unit, opted into every library whose
// headers the toolkit has, kept apart from the tests as in a real program. Compiled once and
// linked into each test program that uses only the public API (tests/CMakeLists.txt).
#include "opt_in_headers.hpp"

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
