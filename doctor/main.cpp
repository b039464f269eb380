// cushim-doctor: what this machine offers each of its users' stacks, and what to change. The
// command line and the exit; the doctor itself is the module behind doctor.hpp.
#include <cushim/status.hpp>

#include <cstdio>
#include <cstring>

#include "doctor.hpp"

namespace {

const char* usage =
    "usage: cushim-doctor [--json] [--record FILE] [--search-dir DIR]... [--python PATH]...\n"
    "                     [--project DIR]... [--build] [--no-discover] [--help]\n"
    "  Finds, from their files alone, every copy of every NVIDIA library on this machine and every\n"
    "  stack that uses them (each framework in each Python environment, each CUDA toolkit, programs\n"
    "  built with cushim), says which of them can use the GPU, and for each that cannot, what to\n"
    "  change. Nothing of the machine is run, loaded or written; only its own loads (the NVIDIA\n"
    "  driver, the CUDA runtime and cuDNN, as a program built with cushim loads them) are made.\n"
    "  --json            print the report as JSON (docs/doctor.md, \"cushim-doctor\")\n"
    "  --record FILE     also write the versions found to FILE: date, OS, driver, every copy of every\n"
    "                    library, each stack and its verdict\n"
    "  --search-dir DIR  search DIR first for this program's own loads (repeatable)\n"
    "  --python PATH     also examine this interpreter or environment folder (repeatable)\n"
    "  --project DIR     also read the interpreter PyCharm or VS Code runs DIR's code with (the\n"
    "                    current folder's is always read; repeatable)\n"
    "  --build           also examine what building CUDA or cuDNN code from source needs (the host\n"
    "                    compiler, its environment, the toolkit's cuDNN headers and libraries)\n"
    "  --no-discover     leave out the toolkits and Python environments\n"
    "  --help            print this text\n"
    "exit: 0 the GPU works and no stack has a problem, 1 nothing found can use a GPU (or a --python\n"
    "      stack is broken), 2 the GPU works for some stack and another has a problem, 64 bad\n"
    "      command line, 73 the record file cannot be written\n";

// False, with the reason on stderr, for a command line the doctor does not understand.
bool parse_arguments(int argc, char** argv, doctor::request& r, bool& help) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool has_value = i + 1 < argc;
    if (std::strcmp(arg, "--json") == 0) {
      r.json = true;
    } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      help = true;
    } else if (std::strcmp(arg, "--search-dir") == 0 && has_value) {
      r.search_dirs.emplace_back(argv[++i]);
    } else if (std::strcmp(arg, "--record") == 0 && has_value && argv[i + 1][0] != '\0') {
      r.record_file = argv[++i];
    } else if (std::strcmp(arg, "--record") == 0 && has_value) {
      std::fprintf(stderr, "cushim-doctor: --record needs a file name, not an empty argument\n");
      return false;
    } else if (std::strcmp(arg, "--python") == 0 && has_value) {
      r.pythons.emplace_back(argv[++i]);
    } else if (std::strcmp(arg, "--project") == 0 && has_value) {
      r.projects.emplace_back(argv[++i]);
    } else if (std::strcmp(arg, "--build") == 0) {
      r.build = true;
    } else if (std::strcmp(arg, "--no-discover") == 0) {
      r.discover = false;
    } else {
      bool needs_value = std::strcmp(arg, "--search-dir") == 0 || std::strcmp(arg, "--record") == 0 ||
                         std::strcmp(arg, "--python") == 0 || std::strcmp(arg, "--project") == 0;
      std::fprintf(stderr, "cushim-doctor: %s '%s'\n", needs_value ? "missing value after" : "unknown argument", arg);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  cushim::serve_probe_request(argc, argv);  // a probe child of another doctor (Windows) ends here
  doctor::request r;
  bool help = false;
  if (!parse_arguments(argc, argv, r, help)) {
    std::fputs(usage, stderr);
    return doctor::exit_usage;
  }
  if (help) {
    std::fputs(usage, stdout);
    return 0;
  }
  doctor::answer a = doctor::run(r);
  std::fputs(a.report.c_str(), stdout);
  return a.exit_code;
}
