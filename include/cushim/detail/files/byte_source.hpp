// Bounded random access to the bytes of a file or a buffer. The ELF and PE readers see files
// only through this: every read names its offset and length, and a read past the end fails
// instead of reading whatever is there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace cushim {
namespace detail {
namespace {

// How the readers word offsets and sizes in their explanations: "0x1f40", "1 byte", "20 bytes".
inline std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

inline std::string count_of_bytes(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

// "7f 45 4c 46": bytes as two hex digits each, spaced.
inline std::string hex_bytes(const std::string& bytes) {
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    char byte[4];
    std::snprintf(byte, sizeof byte, i ? " %02x" : "%02x", unsigned(static_cast<unsigned char>(bytes[i])));
    text += byte;
  }
  return text;
}

class byte_source {
 public:
  virtual ~byte_source() = default;
  virtual std::uint64_t size() const = 0;
  // Exactly n bytes at offset; false (nothing written) when they are not all there.
  virtual bool read(std::uint64_t offset, void* out, std::size_t n) const = 0;

  template <class T>
  bool read_value(std::uint64_t offset, T& out) const {
    return read(offset, &out, sizeof out);
  }

  // A NUL-terminated string of at most max_length bytes; false when unterminated or out of range.
  bool read_c_string(std::uint64_t offset, std::size_t max_length, std::string& out) const {
    out.clear();
    char chunk[64];
    while (out.size() < max_length) {
      std::uint64_t at = offset + out.size();
      if (at >= size()) return false;
      std::size_t n = std::size_t(std::min<std::uint64_t>(sizeof chunk, size() - at));
      if (!read(at, chunk, n)) return false;
      const void* nul = std::memchr(chunk, '\0', n);
      std::size_t take = nul ? std::size_t(static_cast<const char*>(nul) - chunk) : n;
      if (take > max_length - out.size()) return false;  // longer than allowed, whatever follows
      out.append(chunk, take);
      if (nul) return true;
    }
    return false;
  }
};

// Bytes already in memory: for tests and fuzzing.
class memory_source : public byte_source {
 public:
  explicit memory_source(std::string bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  bool read(std::uint64_t offset, void* out, std::size_t n) const override {
    if (offset > bytes_.size() || n > bytes_.size() - offset) return false;
    std::memcpy(out, bytes_.data() + offset, n);
    return true;
  }

 private:
  std::string bytes_;
};

}  // namespace
}  // namespace detail
}  // namespace cushim
