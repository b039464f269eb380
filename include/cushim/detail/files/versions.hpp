// Version numbers of cuDNN, the CUDA runtime and cuBLAS: decoding and printing.
#pragma once

#include <cstdlib>
#include <string>

namespace cushim {
namespace detail {
namespace {

struct version_parts {
  int major = 0, minor = 0, patch = 0;
};

// cuDNN 8.x encodes M*1000+m*100+p (8907 = 8.9.7); 9.x and later M*10000+m*100+p (91900).
inline version_parts decode_cudnn_version(long v) {
  if (v >= 10000) return {int(v / 10000), int(v % 10000 / 100), int(v % 100)};
  return {int(v / 1000), int(v % 1000 / 100), int(v % 100)};
}

// CUDA encodes M*1000+m*10 (13000 = 13.0, 11080 = 11.8).
inline version_parts decode_cuda_version(long v) { return {int(v / 1000), int(v % 1000 / 10), 0}; }

inline long encode_cudnn_version(int major, int minor, int patch) {
  return major >= 9 ? major * 10000L + minor * 100L + patch : major * 1000L + minor * 100L + patch;
}

inline long encode_cuda_version(int major, int minor, int) { return major * 1000L + minor * 10L; }

// cuBLAS and cuBLASLt encode M*10000+m*100+p (CUBLAS_VERSION, cublasLtGetVersion: 130100 = 13.1.0).
inline version_parts decode_cublas_version(long v) { return {int(v / 10000), int(v % 10000 / 100), int(v % 100)}; }

inline long encode_cublas_version(int major, int minor, int patch) { return major * 10000L + minor * 100L + patch; }

// The leading dot-separated numbers of `text` ("9.19.0.48" -> 9, 19, 0, 48), at most `max` of
// them; returns how many were read. Version resources and file names carry versions this way.
inline int leading_numbers(const char* text, long* parts, int max) {
  int count = 0;
  for (const char* p = text; *p && count < max; ++count) {
    char* end = nullptr;
    long value = std::strtol(p, &end, 10);
    if (end == p || value < 0) break;
    parts[count] = value;
    if (*end != '.') return count + 1;
    p = end + 1;
  }
  return count;
}

inline std::string format_version(version_parts p, bool with_patch) {
  std::string s = std::to_string(p.major) + "." + std::to_string(p.minor);
  if (with_patch) s += "." + std::to_string(p.patch);
  return s;
}

}  // namespace
}  // namespace detail
}  // namespace cushim
