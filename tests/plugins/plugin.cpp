// One of two plugins loaded into one host (run.sh): each defines CUSHIM_IMPLEMENTATION and
// configures cuDNN its own way, as GPU back-ends of an inference engine do. plugin_b is built
// with CUSHIM_NO_CUDART, so what it reports for the CUDA runtime says whose state it reads.
#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include <string>

extern "C" __attribute__((visibility("default"))) const char* plugin_report(const char* cudnn_file) {
  static std::string text;
  cushim::options opts;
  opts.files[cushim::library::cudnn] = cudnn_file;
  bool configured = cushim::configure(opts);
  std::size_t version = cudnnGetVersion();
  const cushim::status& cudnn = cushim::status_of(cushim::library::cudnn);
  const cushim::status& cudart = cushim::status_of(cushim::library::cudart);
  text = std::string("configured=") + (configured ? "yes" : "no") + " cudnn.found_by=" + cudnn.found_by +
         " cudnn.path=" + cudnn.path + " cudnn.version=" + std::to_string(version) +
         " cudart=" + cushim::to_string(cudart.code);
  return text.c_str();
}
