// The doctor module's one translation unit: cushim's implementation (this program's own loads go
// through it, as any program built with cushim does), every stage of the module, and run().
// The libraries its build opts into (doctor/CMakeLists.txt), whose headers come first.
#ifdef CUSHIM_CUBLAS
#include <cublasLt.h>
#include <cublas_v2.h>
#endif
#ifdef CUSHIM_NVRTC
#include <nvrtc.h>
#endif

#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <cstdlib>

#include "doctor.hpp"
#include "machine/discover.hpp"
#include "own_build/discover_machine.hpp"
#include "own_build/own_program.hpp"
#include "report/json.hpp"
#include "report/record.hpp"
#include "report/text.hpp"
#include "verdict/verdict.hpp"

namespace doctor {

answer run(const request& r) {
  cushim::options options;
  for (const std::string& dir : r.search_dirs) options.search_dirs.emplace_back(dir);
  options.probe_in_child = true;  // a candidate that crashes or hangs must not take the doctor down
  // The machine laid out in a folder (the doctor's tests): its own loads see the same files.
  if (const char* root = std::getenv("CUSHIM_DISCOVERY_ROOT")) options.system_root = root;
#ifdef _WIN32
  options.probe_program = own_program();  // Linux forks
#endif
  cushim::configure(options);
  findings found = examine();
  if (r.discover) discover(found, r);
  verdict v = decide(found);
  answer a{r.json ? json_report(found, v) : text_report(found, v), v.exit_code};
  if (!r.record_file.empty() && !write_record(r.record_file, found, v)) a.exit_code = exit_cannot_write;
  return a;
}

}  // namespace doctor
