// Discovery alone (the doctor's doctor/machine/): machine::discover() on the machine the environment
// describes (CUSHIM_DISCOVERY_ROOT, HOME, PATH: bench/tools/discovery_machine.py lays one out),
// then _exit(0), so callgrind's total and the wall time are the discovery and the process start.
// Prints how much it found; exit 3 when it found fewer environments than argv[1] says.
// The inventory names libraries through cushim's descriptors, so cushim's implementation is here.
#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include "machine/discover.hpp"
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  cushim::machine::findings f = cushim::machine::discover();
  std::size_t frameworks = 0;
  for (const cushim::machine::environment& e : f.environments) frameworks += e.frameworks.size();
  std::printf("toolkits=%zu environments=%zu frameworks=%zu\n", f.toolkits.size(), f.environments.size(), frameworks);
  std::fflush(stdout);
  bool enough = argc < 2 || f.environments.size() >= std::size_t(std::atol(argv[1]));
  ::_exit(enough ? 0 : 3);
}
