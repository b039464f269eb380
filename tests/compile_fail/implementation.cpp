// Compiled against stand-in headers of unsupported versions: must stop at cushim's #error.
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
