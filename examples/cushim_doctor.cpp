// cushim-doctor: what this machine offers a program built with cushim, and what to fix.
//
// Exit codes: 0 everything usable; 1 cuDNN or the CUDA runtime is unavailable;
//             2 both load, with warnings (no NVIDIA driver, an older minor, skipped entries);
//             64 bad command line.
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

const char* usage =
    "usage: cushim-doctor [--json] [--search-dir DIR]... [--help]\n"
    "  Finds the NVIDIA driver, the CUDA runtime and cuDNN the way a program built with cushim\n"
    "  would, and explains every problem with what to do.\n"
    "  --json            print the report as JSON (schema in README.md)\n"
    "  --search-dir DIR  search DIR first (repeatable)\n"
    "exit: 0 all usable, 1 cuDNN or CUDA runtime unavailable, 2 usable with warnings, 64 usage\n";

bool has_warnings() {
  if (cushim::explain().find("WARNING") != std::string::npos) return true;
  for (cushim::library lib : {cushim::library::cudart, cushim::library::cudnn}) {
    for (const cushim::problem& p : cushim::status_of(lib).problems) {
      if (!p.fatal) return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  cushim::options opts;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--search-dir") == 0 && i + 1 < argc) {
      opts.search_dirs.emplace_back(argv[++i]);
    } else if (std::strcmp(argv[i], "--help") == 0) {
      std::fputs(usage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "cushim-doctor: unknown argument '%s'\n%s", argv[i], usage);
      return 64;
    }
  }
  cushim::configure(opts);
  std::string report = json ? cushim::explain_json() + "\n" : cushim::explain();
  std::fputs(report.c_str(), stdout);
  if (!cushim::available(cushim::library::cudnn) || !cushim::available(cushim::library::cudart)) return 1;
  return has_warnings() ? 2 : 0;
}
