// Compile-time sketch of the proposed fix for the include overhead (BENCHMARKS.md): the public
// header keeps the NVIDIA headers, the enums and the functions that need no standard-library
// type; everything that holds std::string / std::vector (options, status, attempt, problem,
// configure, status_of, explain, explain_json) moves to a second header, <cushim/status.hpp>,
// that only the TUs which inspect cushim's state include. This file writes out what the light
// header would contain, to measure it; it is not part of cushim.
#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace cushim {

enum class library { cudart, cudnn };
enum class version_policy { same_major_newer_minor, same_major };
enum class error_code : int {
  ok = 0,
  not_found = 1,
  load_failed = 2,
  not_the_library = 3,
  version_mismatch = 4,
  override_failed = 5,
  already_loaded_mismatch = 6,
  disabled = 7,
};
enum class outcome {
  loaded,
  reused,
  absent,
  folder_absent,
  not_a_file,
  unreadable,
  load_failed,
  not_the_library,
  wrong_version,
  skipped_relative,
  skipped_empty,
  duplicate,
};

struct options;  // defined in <cushim/status.hpp>
struct status;   // defined in <cushim/status.hpp>

bool available(library lib);
error_code code_of(library lib);
const char* to_string(error_code code);
const char* to_string(outcome result);
const char* to_string(library lib);

}  // namespace cushim

size_t bench_use() { return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr); }
