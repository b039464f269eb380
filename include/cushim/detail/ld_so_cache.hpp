// Reads /etc/ld.so.cache (glibc's "glibc-ld.so.cache1.1" format) the way ld.so does, so cushim
// can find a library by soname and then load it by absolute path. Every offset is bounds-checked.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace cushim {
namespace detail {

// The entry flags glibc writes for a 64-bit library of this process's architecture.
constexpr std::uint32_t ld_cache_flag_libc6 = 0x0003;
#if defined(__x86_64__)
constexpr std::uint32_t ld_cache_required_flags = ld_cache_flag_libc6 | 0x0300;
#elif defined(__aarch64__)
constexpr std::uint32_t ld_cache_required_flags = ld_cache_flag_libc6 | 0x0a00;
#else
constexpr std::uint32_t ld_cache_required_flags = ld_cache_flag_libc6;
#endif

inline std::uint32_t read_u32(const std::string& bytes, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

// The NUL-terminated string at offset `at`, or empty when it runs past the end.
inline std::string read_c_string(const std::string& bytes, std::size_t base, std::uint32_t offset) {
  std::size_t at = base + offset;
  if (at >= bytes.size()) return {};
  std::size_t end = bytes.find('\0', at);
  if (end == std::string::npos) return {};
  return bytes.substr(at, end - at);
}

// Paths the cache lists for `soname`, in the cache's order (the order ld.so tries them). Names
// are compared in place: a lookup allocates only for the entries that match.
inline std::vector<std::string> ld_so_cache_paths(const std::string& bytes, const std::string& soname,
                                                  std::uint32_t required_flags = ld_cache_required_flags) {
  static const char new_magic[] = "glibc-ld.so.cache1.1";
  constexpr std::size_t magic_size = sizeof new_magic - 1;
  constexpr std::size_t header_size = 48, entry_size = 24;
  std::vector<std::string> paths;
  // An old-format cache ("ld.so-1.7.0") may precede the new one; glibc aligns the new header.
  std::size_t base = bytes.find(new_magic);
  if (base == std::string::npos || bytes.size() - base < header_size) return paths;
  std::uint64_t count = read_u32(bytes, base + magic_size);
  if (count > (bytes.size() - base - header_size) / entry_size) return paths;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::size_t entry = base + header_size + std::size_t(i) * entry_size;
    if ((read_u32(bytes, entry) & 0xffff) != required_flags) continue;
    std::size_t key = base + read_u32(bytes, entry + 4);
    if (key >= bytes.size() || bytes.size() - key <= soname.size()) continue;
    // The first byte and the terminator first: most of the cache's names differ there already.
    if (bytes[key] != soname[0] || bytes[key + soname.size()] != '\0' ||
        std::memcmp(bytes.data() + key, soname.data(), soname.size()) != 0) {
      continue;
    }
    std::string path = read_c_string(bytes, base, read_u32(bytes, entry + 8));
    if (!path.empty()) paths.push_back(std::move(path));
  }
  return paths;
}

// Reads at most `limit` bytes: the cache is small; anything larger is not a cache.
inline std::string read_small_file(const char* path, std::size_t limit = std::size_t(64) << 20) {
  std::string bytes;
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return bytes;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && bytes.size() < limit) bytes.append(buf, n);
  std::fclose(f);
  return bytes.size() <= limit ? bytes : std::string();
}

// /etc/ld.so.cache as this process found it, read once.
inline const std::string& system_ld_so_cache() {
  static const std::string bytes = read_small_file("/etc/ld.so.cache");
  return bytes;
}

}  // namespace detail
}  // namespace cushim
