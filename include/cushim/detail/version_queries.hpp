// The shapes of version functions several libraries share, called through a pointer type of the
// same ABI, so a descriptor needs none of its library's headers. Each returns 0 when the call fails.
#pragma once

#include "platform.hpp"
#include "versions.hpp"

namespace cushim {
namespace detail {
namespace {

// f(&version): cufftGetVersion, curandGetVersion, cusolverGetVersion, ncclGetVersion, ...; the
// number as the library encodes it.
inline long query_int_version(platform::any_function f) {
  int version = 0;
  if (reinterpret_cast<int (*)(int*)>(f)(&version) != 0) return 0;
  return version;
}

// f(MAJOR_VERSION, &v), f(MINOR_VERSION, &v), f(PATCH_LEVEL, &v) (libraryPropertyType: 0, 1, 2),
// encoded as M*1000+m*100+p, the toolkit libraries' own encoding (CUSPARSE_VERSION 12603).
inline long query_property_version(platform::any_function f) {
  auto get_property = reinterpret_cast<int (*)(int, int*)>(f);
  int parts[3] = {0, 0, 0};
  for (int type = 0; type < 3; ++type) {
    if (get_property(type, &parts[type]) != 0) return 0;
  }
  return parts[0] * 1000L + parts[1] * 100L + parts[2];
}

// f(&major, &minor) with unsigned outputs (nvJitLinkVersion), in the CUDA encoding.
inline long query_unsigned_major_minor(platform::any_function f) {
  unsigned major = 0, minor = 0;
  if (reinterpret_cast<int (*)(unsigned*, unsigned*)>(f)(&major, &minor) != 0) return 0;
  return encode_cuda_version(int(major), int(minor), 0);
}

// The toolkit libraries' own encoding, M*1000+m*100+p (CUFFT_VERSION 12000 = 12.0.0, CURAND_VERSION
// 10400 = 10.4.0).
inline version_parts decode_toolkit_library_version(long v) {
  return {int(v / 1000), int(v % 1000 / 100), int(v % 100)};
}
inline long encode_toolkit_library_version(int major, int minor, int patch) {
  return major * 1000L + minor * 100L + patch;
}

// NCCL 2.9 and later encode M*10000+m*100+p (NCCL_VERSION_CODE 22809 = 2.28.9), older ones
// M*1000+m*100+p (2804 = 2.8.4).
inline version_parts decode_nccl_version(long v) {
  if (v >= 10000) return {int(v / 10000), int(v % 10000 / 100), int(v % 100)};
  return {int(v / 1000), int(v % 1000 / 100), int(v % 100)};
}
inline long encode_nccl_version(int major, int minor, int patch) { return major * 10000L + minor * 100L + patch; }

}  // namespace
}  // namespace detail
}  // namespace cushim
