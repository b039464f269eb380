// The CUSHIM_IMPLEMENTATION file under cl.exe (_MSC_VER without __clang__) stops at cushim's own
// #error, which says what to do, before anything cl.exe would fail on less clearly.
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
