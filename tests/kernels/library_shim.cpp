// The CUSHIM_IMPLEMENTATION file of library_samples.cu: the opted-in libraries' headers first, as a
// program must; the build defines the opt-in macros for both files.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cufftXt.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusolverRf.h>
#include <cusolverSp.h>
#include <cusparse.h>
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
