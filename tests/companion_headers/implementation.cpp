// The CUSHIM_IMPLEMENTATION file of a program that links -lcudart, -lcublas, -lcufft and -lcusolver
// today: each library's main header and its macro, nothing more. cushim includes the headers that
// come with them itself (api/companion_headers.inc), so calls.cpp's cudaProfilerStart,
// cublasXtCreate, cublasLtCreate, cufftXtMalloc, cusolverSp*, cusolverRf* and the low-level
// sparse API link (docs/supported-headers.md, "Headers cushim includes").
#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
