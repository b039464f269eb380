// Calls into cushim while the process ends: from a global object's destructor, from an atexit
// handler, and from a detached thread still running when main returns. Nothing cushim reaches
// then may be destroyed already (ASan: use after free; plain: a crash at exit).
//   exit_probe destructor-first-use | atexit-first-use | destructor-explain | detached-thread
#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

const char* mode = "";

void print(const char* key, const std::string& value) {
  std::printf("%s=%s\n", key, value.c_str());
  std::fflush(stdout);
}

// Reports from the end of the process; constructed before main, so destroyed after everything
// main's calls created.
struct at_the_end {
  ~at_the_end() {
    if (std::strcmp(mode, "destructor-first-use") == 0) {
      print("destructor.cudnnGetVersion", std::to_string(cudnnGetVersion()));  // cuDNN's first use
      print("destructor.explain", std::to_string(cushim::explain().size() > 0));
    } else if (std::strcmp(mode, "destructor-explain") == 0) {
      print("destructor.explain", std::to_string(cushim::explain().size() > 0));
      print("destructor.explain_json", std::to_string(cushim::explain_json().size() > 0));
    }
  }
} end_of_process;

void first_use_at_exit() {
  print("atexit.cudnnGetVersion", std::to_string(cudnnGetVersion()));
  print("atexit.explain", std::to_string(cushim::explain().size() > 0));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 64;
  mode = argv[1];
#ifndef CUSHIM_NO_CUDART
  int count = -1;
  cudaGetDeviceCount(&count);  // the runtime's first use in main; cuDNN's comes at exit
  print("main.cudaGetDeviceCount", std::to_string(count));
#endif
  if (std::strcmp(mode, "atexit-first-use") == 0) std::atexit(first_use_at_exit);
  if (std::strcmp(mode, "destructor-explain") == 0) print("main.cudnnGetVersion", std::to_string(cudnnGetVersion()));
  if (std::strcmp(mode, "detached-thread") == 0) {
    static std::atomic<bool> running{false};
    std::thread([] {
      for (;;) {
        cudnnGetVersion();
        cushim::explain();
        running.store(true);
      }
    }).detach();
    while (!running.load()) std::this_thread::yield();  // main returns while the thread calls on
  }
  return 0;
}
