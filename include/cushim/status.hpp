// cushim's state, for the code that configures it or reports on it: configure() and options,
// status_of() and status, explain() and explain_json().
//
// Includes <cushim/cushim.hpp> (the NVIDIA headers, the enums, available(), error_of()) and the
// standard headers these types need (<string>, <string_view>, <vector>). Those cost a translation
// unit several times what NVIDIA's headers do, so they live here, apart from <cushim/cushim.hpp>,
// which the files that only call cudnn*/cuda* functions include.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cushim.hpp"

// outcome and attempt (one place searched), problem, shadowing_copy, sublibrary, status (status_of()'s
// answer), log_function, library_files and options (what configure() sets), and to_string(outcome):
// each documented there.
#include "detail/types/status_types.hpp"

namespace cushim {

// Sets the options. Only before the first load; later calls return false and are reported.
bool configure(const options& opts);

// Where the library came from, its versions, every candidate tried and every problem found.
// Loads on first use. The reference stays valid for the life of the process.
const status& status_of(library lib);

// The whole chain (driver, CUDA runtime, cuDNN) as text for a person: what failed, which file,
// why, and what to do.
std::string explain();

// The same as JSON (schema: docs/explain-json.md).
std::string explain_json();

// For probe_in_child's probe_program: call first in main. When the command line is a probe request,
// serves it and ends the process; otherwise returns at once.
void serve_probe_request(int argc, char** argv);

}  // namespace cushim

// In the one implementation TU, the next public header on the way to the implementation, which
// diagnostics.hpp enters at its end.
#ifdef CUSHIM_IMPLEMENTATION
#include "diagnostics.hpp"
#endif
