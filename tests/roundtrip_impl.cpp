// The application's one CUSHIM_IMPLEMENTATION translation unit, kept apart from the test as in
// a real program.
#include "support/opt_in_headers.hpp"

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
