// What a tool that reports on a machine needs beyond status_of() and explain(), as cushim-doctor
// does: the NVIDIA driver, every library cushim knows, the problems explain() shows, a file's
// dependencies resolved as the system loader would, version text, and the JSON writer of
// explain_json(). Defined in the CUSHIM_IMPLEMENTATION translation unit, like explain().
#pragma once

#include <string>
#include <vector>

#include "detail/files/json.hpp"
#include "status.hpp"

namespace cushim {
namespace diagnostics {

struct driver_info {
  bool found = false;
  std::string path;            // libcuda.so.1 / nvcuda.dll, as loaded
  int cuda_version = 0;        // the newest CUDA it supports (cuDriverGetVersion), M*1000+m*10
  std::string version;         // its own version, from its file ("550.54.15"); empty when unknown
  std::string install_advice;  // what to do on this platform without one
  // A FIFO the system loader's search for the driver meets before any driver: the first call of
  // the CUDA runtime or cuDNN that loads the driver by name would wait on it forever. Empty: none.
  std::string blocked_by;
};

// The driver, probed once (never routed to: the CUDA runtime loads it itself).
driver_info driver();

// What nvidia-smi shows, from NVML (the driver's management library: libnvidia-ml.so.1,
// nvml.dll), found only where the driver installs it; it answers without the CUDA runtime.
struct nvml_gpu {
  std::string name;
  int major = 0, minor = 0;             // compute capability
  unsigned long long memory_bytes = 0;  // total memory
};
struct nvml_info {
  bool found = false;  // a copy loaded
  std::string path;
  std::string error;           // "nvmlInit_v2 returned 9" (no kernel module); empty when all answered
  std::string driver_version;  // "575.51.03"
  int cuda_version = 0;        // the newest CUDA the driver supports, M*1000+m*10
  std::vector<nvml_gpu> gpus;
};

// NVML asked each time (loaded and unloaded), whether or not the program opts into it.
nvml_info nvml();

// Every library the reports show, in library order: those this build shims, and those it leaves to
// the program (the CUDA runtime under CUSHIM_NO_CUDART); not an opt-in library it did not opt into.
std::vector<library> libraries();

// "cuDNN", "CUDA runtime": a library's name as a title.
const char* display_name(library lib);

// "cuDNN", "the CUDA runtime": a library's name inside a sentence.
const char* name_in_sentence(library lib);

// A version number in the library's encoding as text: "9.19.0", "13.0"; "unknown" for 0.
std::string version_text(library lib, long version);

// A CUDA version number (M*1000+m*10, as the driver and cudnnGetCudartVersion give it): "13.0";
// "unknown" for 0.
std::string cuda_version_text(long version);

// A WARNING or ERROR of explain(), and the section it is in ("driver", or a library's
// to_string() name).
struct reported_problem {
  std::string section;
  problem what;
};

// Every WARNING and ERROR explain() and explain_json() show, in explain()'s order.
std::vector<reported_problem> problems();

// Loads every file the library loads by name itself that no call has needed yet (cuDNN's
// sub-libraries), as its first call would, so that what a report made after calls usable is what
// those calls will find: one the system loader refuses is unusable, and its functions return the
// fallback, as after such a call. Under probe_in_child each is loaded in a child process only (a
// crash there is named, and the first call still loads it here). A report alone checks these files
// without loading them, which misses what only a load shows (an undefined symbol).
void load_sublibraries(library lib);

struct dependency {
  std::string name;                   // as the file names it (DT_NEEDED, the import table)
  std::string path;                   // the file the system loader would use; empty when none
  std::vector<std::string> searched;  // where it looked, when it found nothing
};

struct file_dependencies {
  std::string path;
  std::string error;  // why the file could not be read; empty when it was
  std::vector<dependency> needs;
};

// What `path` needs (DT_NEEDED on Linux, the import table on Windows), each resolved as the
// system loader would when the file is loaded by absolute path.
file_dependencies dependencies_of(const std::string& path);

// "DT_NEEDED" or "import tables": what this platform calls a library's list of dependencies.
const char* dependency_list_name();

// The JSON writer of explain_json(): strings are checked to be UTF-8 (what is not becomes
// U+FFFD). json_object(out).field("key", value).raw("nested") += ...; append_json_array(out,
// items, [&](const T& item) { ... }).
using detail::append_json_array;
using detail::append_json_string;
using detail::json_object;
using detail::json_string;

}  // namespace diagnostics
}  // namespace cushim

// The one place the implementation is entered (CUSHIM_IMPLEMENTATION): the public headers lead
// here in a line, cushim.hpp -> status.hpp -> diagnostics.hpp, so that whichever of them a file
// includes first, every public declaration comes before the definitions.
#ifdef CUSHIM_IMPLEMENTATION
#include "api/companion_headers.inc"  // NVIDIA's headers cushim includes itself, outside the region too
#include "detail/platform/for_size.hpp"
#include "detail/platform/system_headers.hpp"
CUSHIM_FOR_SIZE_BEGIN
#include "detail/implementation.hpp"
CUSHIM_FOR_SIZE_END
#endif
