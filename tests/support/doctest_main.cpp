// doctest's runner and main(), compiled once per build and linked into every test program
// (cushim_test in tests/CMakeLists.txt, cushim_win_program in tests/windows/CMakeLists.txt)
// instead of once in each.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
