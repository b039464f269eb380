// The shapes of version functions, called through a pointer type of the same ABI, so a descriptor
// needs none of its library's headers: tools/libraries.json names each library's ("version":
// "form", "encoding"). Each returns 0 when the call fails.
#pragma once

#include <cstddef>

#include "../platform/platform.hpp"
#include "../files/versions.hpp"

namespace cushim {
namespace detail {
namespace {

// "returns": size_t f(void), the number as the library encodes it.
inline long query_returned_version(platform::any_function f) { return long(reinterpret_cast<std::size_t (*)()>(f)()); }

// "int_out": f(&version), a status and the number as the library encodes it.
inline long query_int_version(platform::any_function f) {
  int version = 0;
  if (reinterpret_cast<int (*)(int*)>(f)(&version) != 0) return 0;
  return version;
}

// "property": f(MAJOR_VERSION, &v), f(MINOR_VERSION, &v), f(PATCH_LEVEL, &v) (libraryPropertyType:
// 0, 1, 2), in the library's encoding.
template <long (*encode)(int, int, int)>
long query_property_version(platform::any_function f) {
  auto get_property = reinterpret_cast<int (*)(int, int*)>(f);
  int parts[3] = {0, 0, 0};
  for (int type = 0; type < 3; ++type) {
    if (get_property(type, &parts[type]) != 0) return 0;
  }
  return encode(parts[0], parts[1], parts[2]);
}

// "major_minor": f(&major, &minor), with int or unsigned outputs (one ABI), in the library's
// encoding.
template <long (*encode)(int, int, int)>
long query_major_minor_version(platform::any_function f) {
  int major = 0, minor = 0;
  if (reinterpret_cast<int (*)(int*, int*)>(f)(&major, &minor) != 0) return 0;
  return encode(major, minor, 0);
}

// "toolkit_library": the encoding of the toolkit's libraries that are versioned on their own,
// M*1000+m*100+p (12000 = 12.0.0).
inline version_parts decode_toolkit_library_version(long v) {
  return {int(v / 1000), int(v % 1000 / 100), int(v % 100)};
}
inline long encode_toolkit_library_version(int major, int minor, int patch) {
  return major * 1000L + minor * 100L + patch;
}

// "nccl": M*10000+m*100+p from 2.9 on (22809 = 2.28.9), M*1000+m*100+p before (2804 = 2.8.4).
inline version_parts decode_nccl_version(long v) {
  if (v >= 10000) return {int(v / 10000), int(v % 10000 / 100), int(v % 100)};
  return {int(v / 1000), int(v % 1000 / 100), int(v % 100)};
}
inline long encode_nccl_version(int major, int minor, int patch) { return major * 10000L + minor * 100L + patch; }

}  // namespace
}  // namespace detail
}  // namespace cushim
