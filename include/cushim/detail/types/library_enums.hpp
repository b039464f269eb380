// The enums of <cushim/cushim.hpp> (cushim::library, version_policy, error_code), which every
// stage of detail/ names. No standard header: cushim.hpp stays light.
#pragma once

namespace cushim {

// The libraries cushim loads: each library's record's "key" at its "id" (tools/libraries.json), a
// stable value; a library is added with the next one. All but the runtime and cuDNN only for a
// program that opts into them (README.md, "Macros"); otherwise they are `disabled` and never loaded.
// generated: libraries; tools/gen_api.py writes it from tools/libraries.json, do not edit
enum class library {
  cudart = 0,
  cudnn = 1,
  cublas = 2,
  cublasLt = 3,
  nvrtc = 4,
  driver = 5,
  cufft = 6,
  curand = 7,
  cusparse = 8,
  cusolver = 9,
  nvjitlink = 10,
  nvml = 11,
  nccl = 12
};
constexpr int library_count = 13;
// end of generated: libraries

// How the loaded library's version must relate to the headers the program was compiled with.
enum class version_policy {
  same_major_newer_minor,  // major equal, minor >= compiled minor (the default; TensorFlow's rule)
  same_major,              // major equal; an older minor is a warning, not a failure
};

// Why a library is unavailable. The numeric values are stable and documented in docs/errors.md,
// "Error codes".
enum class error_code : int {
  ok = 0,
  not_found = 1,                // no candidate file exists anywhere cushim searched
  load_failed = 2,              // a file was found but the system loader refused it
  not_the_library = 3,          // the file loaded but does not export the library's version function
  version_mismatch = 4,         // wrong major, or an older minor than the policy allows
  override_failed = 5,          // the explicit file or folder (options / CUSHIM_*_PATH) is unusable
  already_loaded_mismatch = 6,  // the copy already in the process is unusable; no second copy
  disabled = 7,                 // this build does not shim the library (CUSHIM_NO_CUDART, no opt-in)
  sublibrary_unusable = 8,      // a required cuDNN sub-library is missing, of another version, or cannot load
};

// Stable names for enums, as used in explain_json(); to_string(outcome) is in status_types.hpp.
const char* to_string(error_code code);
const char* to_string(library lib);

}  // namespace cushim
