// Distinct, type-correct values for any parameter or result type of the NVIDIA C APIs, derived
// from a seed so both sides of the round trip can tell values apart.
#pragma once

#include <cstring>
#include <type_traits>

inline unsigned name_hash(const char* name) {
  unsigned h = 2166136261u;  // FNV-1a
  for (; *name; ++name) h = (h ^ static_cast<unsigned char>(*name)) * 16777619u;
  return h;
}

template <class T>
T make_value(unsigned seed) {
  if constexpr (std::is_same_v<T, bool>) {
    return (seed & 1) != 0;
  } else if constexpr (std::is_enum_v<T>) {
    return static_cast<T>(seed & 1);  // 0 and 1 are valid values of every enum
  } else if constexpr (std::is_floating_point_v<T>) {
    return T(seed % 100000) + T(0.25);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "only C types cross the API");
    unsigned char bytes[sizeof(T)];
    for (std::size_t k = 0; k < sizeof(T); ++k) bytes[k] = static_cast<unsigned char>(seed * 37u + k * 11u + 1u);
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
  }
}
