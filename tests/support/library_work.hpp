// What the toolkit's other libraries do without a GPU, as key=value lines: by test_real_opt_in
// through cushim, and by direct_calls linked with them as usual, so the two can be compared. Each
// creation call returns the library's own answer; cuRAND's host generator draws on the CPU, and
// nvJitLink links NVRTC's PTX into a cubin. Include the libraries' headers first.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace test_support {

using work_results = std::map<std::string, std::string>;

// The saxpy kernel's PTX linked for sm_75 with nvJitLink: the call results, and the cubin's size
// and first four bytes (an ELF file: 7f 45 4c 46).
inline void link_cubin(const std::string& ptx, work_results& out) {
  nvJitLinkHandle handle = nullptr;
  const char* options[] = {"-arch=sm_75"};
  nvJitLinkResult created = nvJitLinkCreate(&handle, 1, options);
  out["nvJitLinkCreate"] = std::to_string(int(created));
  if (created != NVJITLINK_SUCCESS) return;
  out["nvJitLinkAddData"] =
      std::to_string(int(nvJitLinkAddData(handle, NVJITLINK_INPUT_PTX, ptx.data(), ptx.size(), "saxpy.ptx")));
  out["nvJitLinkComplete"] = std::to_string(int(nvJitLinkComplete(handle)));
  std::size_t size = 0;
  out["nvJitLinkGetLinkedCubinSize"] = std::to_string(int(nvJitLinkGetLinkedCubinSize(handle, &size)));
  std::vector<unsigned char> cubin(size);
  if (size >= 4 && nvJitLinkGetLinkedCubin(handle, cubin.data()) == NVJITLINK_SUCCESS) {
    char magic[16];
    std::snprintf(magic, sizeof magic, "%02x%02x%02x%02x", cubin[0], cubin[1], cubin[2], cubin[3]);
    out["cubin_magic"] = magic;
    out["cubin_bytes"] = std::to_string(size);
  }
  nvJitLinkDestroy(&handle);
}

inline work_results library_work(const std::string& ptx) {
  work_results out;
  cufftHandle plan = 0;
  out["cufftPlan1d"] = std::to_string(int(cufftPlan1d(&plan, 64, CUFFT_C2C, 1)));
  curandGenerator_t device = nullptr;
  curandStatus_t device_created = curandCreateGenerator(&device, CURAND_RNG_PSEUDO_DEFAULT);
  out["curandCreateGenerator"] = std::to_string(int(device_created));
  if (device_created == CURAND_STATUS_SUCCESS) curandDestroyGenerator(device);
  // A host generator draws on the CPU: the same seed gives the same numbers through either link.
  curandGenerator_t host = nullptr;
  out["curandCreateGeneratorHost"] = std::to_string(int(curandCreateGeneratorHost(&host, CURAND_RNG_PSEUDO_XORWOW)));
  if (host) {
    float draws[4] = {0, 0, 0, 0};
    out["curandSetPseudoRandomGeneratorSeed"] = std::to_string(int(curandSetPseudoRandomGeneratorSeed(host, 1234ULL)));
    out["curandGenerateUniform"] = std::to_string(int(curandGenerateUniform(host, draws, 4)));
    char text[128];
    std::snprintf(text, sizeof text, "%.7f %.7f %.7f %.7f", draws[0], draws[1], draws[2], draws[3]);
    out["host_draws"] = text;
    curandDestroyGenerator(host);
  }
  cusparseHandle_t sparse = nullptr;
  cusparseStatus_t sparse_created = cusparseCreate(&sparse);
  out["cusparseCreate"] = std::to_string(int(sparse_created));
  if (sparse_created == CUSPARSE_STATUS_SUCCESS) cusparseDestroy(sparse);
  cusolverDnHandle_t dense = nullptr;
  cusolverStatus_t dense_created = cusolverDnCreate(&dense);
  out["cusolverDnCreate"] = std::to_string(int(dense_created));
  if (dense_created == CUSOLVER_STATUS_SUCCESS) cusolverDnDestroy(dense);
  out["ncclGetErrorString"] = ncclGetErrorString(ncclInvalidArgument);
  link_cubin(ptx, out);
  return out;
}

}  // namespace test_support
