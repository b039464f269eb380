// The implementation TU of a program that opts into every library besides cuDNN and the runtime:
// each opt-in macro, then the libraries' main headers, as README.md, "Macros" says (cushim includes
// the others), from tests/support/all_opt_ins.hpp, generated from the libraries' records. bench/run.sh
// puts a stand-in nvml.h on the include path where the toolkit has none
// (tests/api_tables/synthetic_nvml.py).
#include "../../tests/support/all_opt_ins.hpp"

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>
