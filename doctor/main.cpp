// cushim-doctor: what this machine offers each of its users' stacks, and what to change. The
// command line and the exit; the doctor itself is the module behind doctor.hpp.
#include <cushim/status.hpp>

#include <cstdio>
#include <cstring>

#include "doctor.hpp"
#include "words/usage.hpp"

namespace {

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
      std::fputs(doctor::words::record_needs_file_name().c_str(), stderr);
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
      std::fputs(doctor::words::bad_argument(needs_value, arg).c_str(), stderr);
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
    std::fputs(doctor::words::usage, stderr);
    return doctor::exit_usage;
  }
  if (help) {
    std::fputs(doctor::words::usage, stdout);
    return 0;
  }
  doctor::answer a = doctor::run(r);
  std::fputs(a.report.c_str(), stdout);
  return a.exit_code;
}
