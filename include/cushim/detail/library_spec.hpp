// What cushim knows about each library at compile time: file name, versions, variables.
#pragma once

#include <string>
#include <vector>

namespace cushim {
namespace detail {

#define CUSHIM_STRINGIFY2(x) #x
#define CUSHIM_STRINGIFY(x) CUSHIM_STRINGIFY2(x)

struct library_spec {
  library lib;
  const char* display_name;  // for people: "cuDNN", "CUDA runtime"
  std::string file_name;     // the name the system loader would look for
  int compiled_version;      // CUDNN_VERSION / CUDART_VERSION of the headers
  int compiled_major;
  const char* version_function;
  const char* override_variable;
  std::vector<const char*> home_variables;     // install roots, searched with lib64/ and lib/
  std::vector<const char*> pip_packages;       // site-packages/nvidia/<package>/lib
  std::vector<std::string> other_major_files;  // the same library of the other supported majors
};

// cudnn64_9.dll on Windows, libcudnn.so.9 elsewhere.
inline std::string cudnn_file_name(int major) {
#ifdef _WIN32
  return "cudnn64_" + std::to_string(major) + ".dll";
#else
  return "libcudnn.so." + std::to_string(major);
#endif
}

inline std::vector<std::string> other_cudnn_majors() {
  std::vector<std::string> files;
  for (int major : {8, 9}) {
    if (major != CUDNN_MAJOR) files.push_back(cudnn_file_name(major));
  }
  return files;
}

inline const library_spec& cudnn_spec() {
  static const library_spec spec{library::cudnn,
                                 "cuDNN",
                                 cudnn_file_name(CUDNN_MAJOR),
                                 CUDNN_VERSION,
                                 CUDNN_MAJOR,
                                 "cudnnGetVersion",
                                 "CUSHIM_CUDNN_PATH",
                                 {"CUDNN_PATH", "CUDNN_HOME", "CUDNN_ROOT_DIR", "CUDA_PATH", "CUDA_HOME"},
                                 {"cudnn"},
                                 other_cudnn_majors()};
  return spec;
}

// CUDA 11 kept the minor in the soname (and cudart64_110.dll); 12 and later use the major alone.
inline std::string cudart_file_name(int major) {
#ifdef _WIN32
  return major == 11 ? std::string("cudart64_110.dll") : "cudart64_" + std::to_string(major) + ".dll";
#else
  return major == 11 ? std::string("libcudart.so.11.0") : "libcudart.so." + std::to_string(major);
#endif
}

inline std::vector<std::string> other_cudart_majors() {
  std::vector<std::string> files;
  for (int major : {11, 12, 13}) {
    if (major != CUSHIM_CUDART_MAJOR) files.push_back(cudart_file_name(major));
  }
  return files;
}

inline const library_spec& cudart_spec() {
  static const library_spec spec{library::cudart,
                                 "CUDA runtime",
                                 cudart_file_name(CUSHIM_CUDART_MAJOR),
                                 CUDART_VERSION,
                                 CUSHIM_CUDART_MAJOR,
                                 "cudaRuntimeGetVersion",
                                 "CUSHIM_CUDART_PATH",
                                 {"CUDA_PATH", "CUDA_HOME"},
                                 {"cuda_runtime", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)},
                                 other_cudart_majors()};
  return spec;
}

}  // namespace detail
}  // namespace cushim
