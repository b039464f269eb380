// The doctor module's one entry: what cushim-doctor is asked (a request), and what it answers (the
// report and the exit code). Everything else of the module is its stages, in the order the data
// flows: machine/ (what is installed, from files), inventory/ (every copy of every NVIDIA library),
// stacks/ (what each framework, toolkit and cushim program would load, and what breaks),
// own_build/ (this program's own loads, made for real), verdict/ and report/. Defined in doctor.cpp.
#pragma once

#include <string>
#include <vector>

namespace doctor {

// Exit codes (README.md, "The doctor").
constexpr int exit_gpu_works = 0;      // the GPU works, and no stack has a problem
constexpr int exit_no_gpu = 1;         // nothing found can use a GPU, or a stack named with --python is broken
constexpr int exit_problems = 2;       // the GPU works for at least one stack, and some stack has a problem
constexpr int exit_usage = 64;         // bad command line (EX_USAGE)
constexpr int exit_cannot_write = 73;  // the --record file cannot be written (EX_CANTCREAT)

struct request {
  bool json = false;                     // the report as JSON (docs/doctor.md)
  bool discover = true;                  // false: leave the machine's toolkits and environments out
  std::string record_file;               // also write the record here; empty: none
  std::vector<std::string> search_dirs;  // searched first by this program's own loads
  std::vector<std::string> pythons;      // interpreters or environment folders to examine too
  std::vector<std::string> projects;     // project folders whose IDE settings to read, besides the current one
  bool build = false;                    // also examine what a source build needs
};

struct answer {
  std::string report;  // for stdout
  int exit_code = exit_gpu_works;
};

// Examines the machine as the request asks, writes the record when one is asked for, and answers.
answer run(const request& r);

}  // namespace doctor
