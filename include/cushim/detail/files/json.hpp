// A small JSON writer: strings checked to be UTF-8 (what is not becomes U+FFFD), objects and
// arrays appended to one std::string. explain_json() and cushim-doctor --json write with it
// (the doctor through <cushim/diagnostics.hpp>).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cushim {
namespace detail {
namespace {

// The length of the well-formed UTF-8 sequence that starts at s[i] (Unicode's table 3-7: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0 when there is none. `prefix`
// receives the length of its longest well-formed start, the "maximal subpart" that one U+FFFD
// replaces, as a strict decoder (Python's, WHATWG's TextDecoder) does.
inline std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t& prefix) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  prefix = 1;
  if (c < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    length = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    length = 3;
    if (c == 0xe0) low = 0xa0;   // below is overlong
    if (c == 0xed) high = 0x9f;  // above are surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    length = 4;
    if (c == 0xf0) low = 0x90;   // below is overlong
    if (c == 0xf4) high = 0x8f;  // above is past U+10FFFF
  } else {
    return 0;  // a continuation byte, C0, C1 or F5..FF
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) return 0;
    const unsigned char b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xbf)) return 0;
    prefix = k + 1;
  }
  return length;
}

// A JSON string literal, quotes included. Paths may hold any bytes; JSON must be UTF-8.
inline void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
      ++i;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
    } else {
      std::size_t prefix = 1;
      std::size_t length = utf8_sequence(s, i, prefix);
      if (length) {
        out.append(s.data() + i, length);
        i += length;
      } else {
        out += "\\ufffd";
        i += prefix;
      }
    }
  }
  out += '"';
}

inline std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

// One object, closed when it goes out of scope: json_object(out).field("a", 1).field("b", "x").
class json_object {
 public:
  explicit json_object(std::string& out) : out_(out) { out_ += '{'; }
  ~json_object() { out_ += '}'; }
  json_object(const json_object&) = delete;
  json_object& operator=(const json_object&) = delete;

  json_object& field(const char* key, std::string_view v) { return key_(key), append_json_string(out_, v), *this; }
  json_object& field(const char* key, const std::string& v) { return field(key, std::string_view(v)); }
  json_object& field(const char* key, const char* v) { return field(key, std::string_view(v)); }
  json_object& field(const char* key, long long v) { return key_(key), out_ += std::to_string(v), *this; }
  json_object& field(const char* key, long v) { return field(key, static_cast<long long>(v)); }
  json_object& field(const char* key, int v) { return field(key, static_cast<long long>(v)); }
  json_object& field(const char* key, unsigned long long v) { return key_(key), out_ += std::to_string(v), *this; }
  json_object& field(const char* key, bool v) { return key_(key), out_ += v ? "true" : "false", *this; }
  // The key; the caller appends its value (an object, an array, JSON text) to the string returned.
  std::string& raw(const char* key) { return key_(key), out_; }

 private:
  void key_(const char* key) {
    if (!first_) out_ += ',';
    first_ = false;
    append_json_string(out_, key);
    out_ += ':';
  }
  std::string& out_;
  bool first_ = true;
};

// [each(item), ...]: `each` appends one value to `out`.
template <class T, class F>
void append_json_array(std::string& out, const std::vector<T>& items, F each) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    each(items[i]);
  }
  out += ']';
}

}  // namespace
}  // namespace detail
}  // namespace cushim
