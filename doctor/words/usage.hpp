// The words of cushim-doctor's command line (main.cpp): its usage, and what it says of a command
// line it does not understand.
#pragma once

#include <string>

namespace doctor {
namespace words {

constexpr const char* usage =
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

inline std::string record_needs_file_name() {
  return "cushim-doctor: --record needs a file name, not an empty argument\n";
}
// `arg`: an option without its value (`needs_value`), or one the doctor does not know.
inline std::string bad_argument(bool needs_value, const std::string& arg) {
  return std::string("cushim-doctor: ") + (needs_value ? "missing value after" : "unknown argument") + " '" + arg +
         "'\n";
}

}  // namespace words
}  // namespace doctor
