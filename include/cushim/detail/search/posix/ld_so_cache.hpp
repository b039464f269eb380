// Reads /etc/ld.so.cache (glibc's "glibc-ld.so.cache1.1" format) the way ld.so does, so cushim
// can find a library by soname and then load it by absolute path. Every offset is bounds-checked.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../platform/system_root.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The entry flags glibc writes for a 64-bit library of this process's architecture.
constexpr std::uint32_t ld_cache_flag_libc6 = 0x0003;
#if defined(__x86_64__)
constexpr std::uint32_t ld_cache_required_flags = ld_cache_flag_libc6 | 0x0300;
#elif defined(__aarch64__)
constexpr std::uint32_t ld_cache_required_flags = ld_cache_flag_libc6 | 0x0a00;
#else
constexpr std::uint32_t ld_cache_required_flags = ld_cache_flag_libc6;
#endif

inline std::uint32_t read_u32(std::string_view bytes, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

// The NUL-terminated string at offset `at`, or empty when it runs past the end.
inline std::string read_c_string(std::string_view bytes, std::size_t base, std::uint32_t offset) {
  std::size_t at = base + offset;
  if (at >= bytes.size()) return {};
  std::size_t end = bytes.find('\0', at);
  if (end == std::string_view::npos) return {};
  return std::string(bytes.substr(at, end - at));
}

// glibc's order of cache keys (_dl_cache_libcmp): runs of digits compare as numbers, a digit
// sorts after any other byte. ldconfig writes the entries sorted by it, highest first.
// -1, 0 or 1.
inline int compare_cache_names(const char* a, const char* a_end, const char* b, const char* b_end) {
  auto digit = [](const char* p, const char* end) { return p < end && *p >= '0' && *p <= '9'; };
  while (a < a_end) {
    // Equal bytes that are not digits compare as bytes: passed over in a plain loop first.
    while (a < a_end && b < b_end && *a == *b && (*a < '0' || *a > '9')) ++a, ++b;
    if (a == a_end) break;
    if (digit(a, a_end)) {
      if (!digit(b, b_end)) return 1;
      unsigned long long x = 0, y = 0;  // glibc's int would wrap on names no library has
      while (digit(a, a_end)) x = x * 10 + unsigned(*a++ - '0');
      while (digit(b, b_end)) y = y * 10 + unsigned(*b++ - '0');
      if (x != y) return x < y ? -1 : 1;
    } else if (digit(b, b_end)) {
      return -1;
    } else if (b >= b_end || *a != *b) {
      return b >= b_end || (unsigned char)*a > (unsigned char)*b ? 1 : -1;
    } else {
      ++a, ++b;
    }
  }
  return b < b_end ? -1 : 0;
}

// Where the new format's entries are: an old-format cache ("ld.so-1.7.0") may precede it, and
// glibc aligns the new header. count 0: not a cache ldconfig wrote, or an empty one.
struct cache_table {
  std::size_t base = 0;
  std::uint64_t count = 0;
  std::size_t entry_at(std::uint64_t i) const { return base + 48 + std::size_t(i) * 24; }
};

inline cache_table cache_table_of(std::string_view bytes) {
  static const char new_magic[] = "glibc-ld.so.cache1.1";
  constexpr std::size_t magic_size = sizeof new_magic - 1, header_size = 48, entry_size = 24;
  cache_table table;
  std::size_t base = bytes.find(new_magic);
  if (base == std::string_view::npos || bytes.size() - base < header_size) return table;
  std::uint64_t count = read_u32(bytes, base + magic_size);
  if (count > (bytes.size() - base - header_size) / entry_size) return table;
  table.base = base;
  table.count = count;
  return table;
}

// Paths the cache lists for `soname`, in the cache's order (the order ld.so tries them), found
// as ld.so finds them: a binary search over the sorted keys, then every equal key around it.
inline std::vector<std::string> ld_so_cache_paths(std::string_view bytes, const std::string& soname,
                                                  std::uint32_t required_flags = ld_cache_required_flags) {
  std::vector<std::string> paths;
  cache_table table = cache_table_of(bytes);
  if (table.count == 0 || soname.empty()) return paths;
  std::size_t base = table.base;
  std::uint64_t count = table.count;
  auto entry_at = [&](std::uint64_t i) { return table.entry_at(i); };
  // soname against the key of entry i: -1, 0 or 1; 2 when the key is unreadable.
  auto compare = [&](std::uint64_t i) {
    std::size_t key = base + read_u32(bytes, entry_at(i) + 4);
    if (key >= bytes.size()) return 2;
    std::size_t end = bytes.find('\0', key);
    if (end == std::string_view::npos) return 2;
    const char* name = soname.data();
    return compare_cache_names(name, name + soname.size(), bytes.data() + key, bytes.data() + end);
  };
  std::uint64_t left = 0, right = count;
  while (left < right) {
    std::uint64_t middle = left + (right - left) / 2;
    int order = compare(middle);
    if (order == 2) return paths;  // not a cache ldconfig wrote
    if (order == 0) {
      while (middle > 0 && compare(middle - 1) == 0) --middle;
      for (std::uint64_t i = middle; i < count && compare(i) == 0; ++i) {
        if ((read_u32(bytes, entry_at(i)) & 0xffff) != required_flags) continue;
        std::string path = read_c_string(bytes, base, read_u32(bytes, entry_at(i) + 8));
        if (!path.empty()) paths.push_back(std::move(path));
      }
      return paths;
    }
    if (order < 0) {
      left = middle + 1;  // keys sort highest first: soname is further on
    } else {
      right = middle;
    }
  }
  return paths;
}

// Every entry of the cache for this architecture, as (name, path), in the cache's order.
inline std::vector<std::pair<std::string, std::string>> ld_so_cache_entries(
    std::string_view bytes, std::uint32_t required_flags = ld_cache_required_flags) {
  std::vector<std::pair<std::string, std::string>> entries;
  cache_table table = cache_table_of(bytes);
  for (std::uint64_t i = 0; i < table.count; ++i) {
    std::size_t at = table.entry_at(i);
    if ((read_u32(bytes, at) & 0xffff) != required_flags) continue;
    std::string name = read_c_string(bytes, table.base, read_u32(bytes, at + 4));
    std::string path = read_c_string(bytes, table.base, read_u32(bytes, at + 8));
    if (!name.empty() && !path.empty()) entries.emplace_back(std::move(name), std::move(path));
  }
  return entries;
}

// A small file's bytes, read into memory; none when it cannot be read or is larger than `limit`,
// which no cache is. Read, not mapped: a file cut while mapped (cp over it) raises SIGBUS in whoever
// reads the mapping next, and cushim reads the cache at any later search. The buffer is not zeroed
// first (the read fills it).
class small_file {
 public:
  explicit small_file(const char* path, std::size_t limit = std::size_t(64) << 20) {
    int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return;
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && std::uint64_t(st.st_size) <= limit) {
      const std::size_t size = std::size_t(st.st_size);
      bytes_.reset(new char[size]);
      while (size_ < size) {
        ssize_t n = ::pread(fd, bytes_.get() + size_, size - size_, off_t(size_));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // a file cut meanwhile: what was read, which the lookup bounds-checks
        size_ += std::size_t(n);
      }
    }
    ::close(fd);
  }

  std::string_view bytes() const { return {bytes_.get(), size_}; }

 private:
  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0;
};

// /etc/ld.so.cache (under the system root) as this process found it, read once and never freed (the cache is read for
// the life of the process, at exit too).
inline std::string_view system_ld_so_cache() {
  static const small_file* cache = new small_file(system_path("/etc/ld.so.cache").c_str());
  return cache->bytes();
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
