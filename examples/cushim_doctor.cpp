// cushim-doctor: what this machine offers a program built with cushim, and what to fix.
//
// Prints cushim::explain() (the driver, the CUDA runtime, cuDNN and its sub-libraries, and cuBLAS,
// cuBLASLt and NVRTC when its build opts into them), then its own checks: the driver's version,
// the dependencies of every library in use, the GPUs, cudnnCreate; then the machine as its users
// have it (<cushim/machine.hpp>: toolkits, Python environments, frameworks, from their files); and
// a verdict. Exit codes (README.md, "The doctor"): 0 the libraries load and a GPU works; 1 a
// library it shims is unavailable; 2 they load, with warnings (no driver, no GPU, cudnnCreate
// failed, warnings in the report, a problem of a toolkit or a Python environment); 64 bad command
// line; 73 the --record file cannot be written.
// The libraries its build opts into (examples/CMakeLists.txt), whose headers come first.
#ifdef CUSHIM_CUBLAS
#include <cublasLt.h>
#include <cublas_v2.h>
#endif
#ifdef CUSHIM_NVRTC
#include <nvrtc.h>
#endif

#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "doctor/discovery.hpp"
#include "doctor/json_report.hpp"
#include "doctor/own_program.hpp"
#include "doctor/record.hpp"
#include "doctor/text_report.hpp"

namespace {

const char* usage =
    "usage: cushim-doctor [--json] [--record FILE] [--search-dir DIR]... [--python PATH]...\n"
    "                     [--no-discover] [--help]\n"
    "  Finds the NVIDIA driver, the CUDA runtime and cuDNN (and cuBLAS, cuBLASLt and NVRTC when\n"
    "  built with them) the way a program built with cushim would, lists the GPUs, tries\n"
    "  cudnnCreate, and explains every problem with what to do. Then, from their files alone, every\n"
    "  CUDA toolkit, every Python environment and the frameworks in it, each framework's CUDA\n"
    "  library resolved as that framework loads it (nothing is run, loaded or written).\n"
    "  --json            print the report as JSON (docs/doctor.md, \"cushim-doctor\")\n"
    "  --record FILE     also write the versions found to FILE: date, OS, driver, CUDA runtime,\n"
    "                    cuDNN, the headers cushim was built with, paths, each environment's\n"
    "                    frameworks and the CUDA and cuDNN each would load\n"
    "  --search-dir DIR  search DIR first (repeatable)\n"
    "  --python PATH     also examine this interpreter or environment folder (repeatable)\n"
    "  --no-discover     leave out the toolkits and Python environments\n"
    "  --help            print this text\n"
    "exit: 0 usable (the libraries load and a GPU works), 1 a library it checks is unavailable,\n"
    "      2 usable with warnings (no driver or GPU, cudnnCreate failed, warnings in the report,\n"
    "      a problem of a toolkit or a Python environment), 64 bad command line, 73 the record\n"
    "      file cannot be written\n";

struct arguments {
  cushim::options options;
  bool json = false;
  bool help = false;
  bool discover = true;
  std::vector<std::string> pythons;
  std::string record_file;
};

// False, with the reason on stderr, for a command line the doctor does not understand.
bool parse_arguments(int argc, char** argv, arguments& args) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    if (std::strcmp(arg, "--json") == 0) {
      args.json = true;
    } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      args.help = true;
    } else if (std::strcmp(arg, "--search-dir") == 0 && has_value) {
      args.options.search_dirs.emplace_back(argv[++i]);
    } else if (std::strcmp(arg, "--record") == 0 && has_value && argv[i + 1][0] != '\0') {
      args.record_file = argv[++i];
    } else if (std::strcmp(arg, "--record") == 0 && has_value) {
      std::fprintf(stderr, "cushim-doctor: --record needs a file name, not an empty argument\n");
      return false;
    } else if (std::strcmp(arg, "--python") == 0 && has_value) {
      args.pythons.emplace_back(argv[++i]);
    } else if (std::strcmp(arg, "--no-discover") == 0) {
      args.discover = false;
    } else {
      bool needs_value = std::strcmp(arg, "--search-dir") == 0 || std::strcmp(arg, "--record") == 0 ||
                         std::strcmp(arg, "--python") == 0;
      std::fprintf(stderr, "cushim-doctor: %s '%s'\n", needs_value ? "missing value after" : "unknown argument", arg);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  cushim::serve_probe_request(argc, argv);  // a probe child of another doctor (Windows) ends here
  arguments args;
  if (!parse_arguments(argc, argv, args)) {
    std::fputs(usage, stderr);
    return doctor::exit_usage;
  }
  if (args.help) {
    std::fputs(usage, stdout);
    return 0;
  }
  args.options.probe_in_child = true;  // a candidate that crashes or hangs must not take the doctor down
#ifdef _WIN32
  args.options.probe_program = doctor::own_program();  // Linux forks
#endif
  cushim::configure(args.options);
  doctor::findings found = doctor::examine();
  if (args.discover) doctor::discover(found, args.pythons);
  std::string report = args.json ? doctor::json_report(found) : doctor::text_report(found);
  std::fputs(report.c_str(), stdout);
  if (!args.record_file.empty() && !doctor::write_record(args.record_file, found)) return doctor::exit_cannot_write;
  return found.result.exit_code;
}
