// The light header and the default libraries' tables in an MSVC-mode compiler (clang
// --target=x86_64-pc-windows-msvc -fms-compatibility, _MSC_VER defined, Microsoft's preprocessor
// rules as clang emulates them): each table line, expanded by its own macro, must redeclare the
// function exactly as NVIDIA's headers declare it. What cl.exe itself would do is not tested here
// (docs/windows.md, "Compilers").
#include <cushim/cushim.hpp>

#ifndef _MSC_VER
#error "tests/msvc/tables.cpp is compiled in MSVC mode only"
#endif

#include <cushim/api/table_versions.hpp>
#include <cushim/api/table_selection.inc>

#define CUSHIM_API(lib, group, ret, name, params, args) extern "C" ret name params;
// A line the headers decide: redeclared only where they declare it, as the implementation does.
#define CUSHIM_API_DECLARED(lib, group, ret, name, params, args, declared, arity)
#include CUSHIM_CUDNN_TABLE
#include CUSHIM_CUDART_TABLE

// Every line expanded to a redeclaration: a function of each table, called through its declaration.
int tables_expanded() { return int(cudnnGetVersion()) + int(cudaGetDeviceCount(nullptr)); }
