// light_header_check: the same TU through <cushim/cushim.hpp>, with every function it declares.
// It may include nothing that plain.cpp does not, apart from cushim.hpp itself.
#include <cushim/cushim.hpp>

size_t use() {
  const bool usable = cushim::available(cushim::library::cudnn);
  const char* names[] = {cushim::to_string(cushim::error_of(cushim::library::cudart)),
                         cushim::to_string(cushim::library::cudnn)};
  return cudnnGetVersion() + size_t(cudaGetErrorString(cudaSuccess) != nullptr) + size_t(usable) +
         size_t(names[0] != names[1]) + CUSHIM_VERSION_MAJOR;
}
