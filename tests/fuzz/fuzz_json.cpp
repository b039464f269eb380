// libFuzzer target: the JSON string escaper on arbitrary bytes. The output must be a JSON string
// whose every character is well-formed UTF-8 (checked here by a decoder written apart from
// cushim's, after RFC 3629), with no raw control character, and valid input must pass unchanged.
#include <cushim/detail/files/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// The code point of the well-formed UTF-8 sequence at s[i] and its length, or length 0.
std::size_t decode(const std::string& s, std::size_t i, std::uint32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  std::size_t length = byte(0) < 0x80           ? 1
                       : (byte(0) >> 5) == 0x6  ? 2
                       : (byte(0) >> 4) == 0xe  ? 3
                       : (byte(0) >> 3) == 0x1e ? 4
                                                : 0;
  if (length == 0 || i + length > s.size()) return 0;
  cp = length == 1 ? byte(0) : byte(0) & (0xff >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (byte(k) & 0x3f);
  }
  static const std::uint32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < shortest[length] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return length;
}

bool well_formed(const std::string& s) {
  std::uint32_t cp = 0;
  for (std::size_t i = 0, n = 0; i < s.size(); i += n) {
    if ((n = decode(s, i, cp)) == 0) return false;
  }
  return true;
}

bool needs_escape(const std::string& s) {
  for (char c : s) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string out = cushim::detail::json_string(input);
  if (out.size() < 2 || out.front() != '"' || out.back() != '"' || !well_formed(out)) std::abort();
  for (std::size_t i = 1; i + 1 < out.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(out[i]);
    if (c < 0x20) std::abort();
    if (c == '"' && out[i - 1] != '\\') std::abort();  // an unescaped quote inside
    if (c == '\\') ++i;                                // an escape: skip what it escapes
  }
  if (well_formed(input) && !needs_escape(input) && out != '"' + input + '"') std::abort();
  return 0;
}
