// The tables api_tables.hpp picks for the real headers, every library opted in: each line
// redeclares its function, and a prototype that differs from the header's declaration does not
// compile (two C functions of one name). No stub is defined: nothing is linked. A header not every
// toolkit has (nvml.h: the 13.0 one here has none) is checked where it is.
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "../support/all_opt_ins.hpp"  // every opt-in macro and its headers (generated)

#include <cushim/detail/tables/api_tables.hpp>

#define CUSHIM_API(library, group, ret, name, params, args) extern "C" ret name params;
#include <cushim/detail/tables/library_tables.inc>
