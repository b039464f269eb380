// The small JSON files discovery reads (conda's conda-meta/state, Visual Studio's instance
// state.json, VS Code's settings.json, which may have // and /* */ comments and trailing commas),
// as a tree of values. Bounded: the text is a bounded read already, and nesting deeper than 64 is
// garbage. Anything that is not JSON reads as "not JSON", never more.
#pragma once

#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cushim {
namespace detail {
namespace {
namespace discovery {

struct json_value {
  enum class kind { null, boolean, number, string, array, object } type = kind::null;
  std::string text;                                         // a string's characters; a number or a boolean as written
  std::vector<std::pair<std::string, json_value>> members;  // an object's, in order (an array's: empty names)

  // An object's member, or null.
  const json_value* member(std::string_view name) const {
    if (type != kind::object) return nullptr;
    for (const auto& m : members) {
      if (m.first == name) return &m.second;
    }
    return nullptr;
  }
  // A string member's text; empty when it is not there or not a string.
  std::string string_member(std::string_view name) const {
    const json_value* v = member(name);
    return v && v->type == kind::string ? v->text : std::string();
  }
};

class json_reader {
 public:
  explicit json_reader(std::string_view text) : s_(text) {}

  // The document's one value; false when the text is not JSON.
  bool read(json_value& out) {
    if (!value(out, 0)) return false;
    space();
    return at_ == s_.size();
  }

 private:
  void space() {
    while (at_ < s_.size()) {
      char c = s_[at_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++at_;
      } else if (s_.compare(at_, 2, "//") == 0) {
        at_ = s_.find('\n', at_);
        if (at_ == std::string_view::npos) at_ = s_.size();
      } else if (s_.compare(at_, 2, "/*") == 0) {
        std::size_t end = s_.find("*/", at_ + 2);
        at_ = end == std::string_view::npos ? s_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  bool literal(std::string_view word) {
    if (s_.compare(at_, word.size(), word) != 0) return false;
    at_ += word.size();
    return true;
  }

  // A UTF-16 code unit of \uXXXX as UTF-8 (a lone surrogate as U+FFFD: enough for paths).
  static void append_code(std::string& out, unsigned code) {
    if (code >= 0xD800 && code <= 0xDFFF) code = 0xFFFD;
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xC0 | (code >> 6));
      out += char(0x80 | (code & 0x3F));
    } else {
      out += char(0xE0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    }
  }

  bool string(std::string& out) {
    if (at_ >= s_.size() || s_[at_] != '"') return false;
    ++at_;
    out.clear();
    while (at_ < s_.size()) {
      char c = s_[at_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size()) return false;
      char e = s_[at_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (at_ + 4 > s_.size()) return false;
          std::string hex(s_.substr(at_, 4));
          char* end = nullptr;
          unsigned long code = std::strtoul(hex.c_str(), &end, 16);
          if (end != hex.c_str() + 4) return false;
          append_code(out, unsigned(code));
          at_ += 4;
          break;
        }
        default: out += e;  // \" \\ \/
      }
    }
    return false;
  }

  // The members of an object or an array, up to `close`; trailing commas allowed (JSONC).
  bool members(json_value& out, char close, int depth) {
    ++at_;
    for (;;) {
      space();
      if (at_ < s_.size() && s_[at_] == close) return ++at_, true;
      std::string name;
      if (close == '}') {
        if (!string(name)) return false;
        space();
        if (at_ >= s_.size() || s_[at_] != ':') return false;
        ++at_;
      }
      json_value v;
      if (!value(v, depth + 1)) return false;
      out.members.emplace_back(std::move(name), std::move(v));
      space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
      } else if (at_ >= s_.size() || s_[at_] != close) {
        return false;
      }
    }
  }

  bool value(json_value& out, int depth) {
    space();
    if (at_ >= s_.size() || depth > 64) return false;
    char c = s_[at_];
    if (c == '{') return out.type = json_value::kind::object, members(out, '}', depth);
    if (c == '[') return out.type = json_value::kind::array, members(out, ']', depth);
    if (c == '"') return out.type = json_value::kind::string, string(out.text);
    if (literal("true") || literal("false")) {
      out.type = json_value::kind::boolean;
      out.text = s_[at_ - 1] == 'e' && s_[at_ - 2] == 'u' ? "true" : "false";
      return true;
    }
    if (literal("null")) return out.type = json_value::kind::null, true;
    std::size_t start = at_;
    while (at_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[at_])) || s_[at_] == '-' || s_[at_] == '+' ||
                               s_[at_] == '.' || s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
    }
    if (at_ == start) return false;
    out.type = json_value::kind::number;
    out.text = std::string(s_.substr(start, at_ - start));
    return true;
  }

  std::string_view s_;
  std::size_t at_ = 0;
};

// `text` as JSON; false when it is not.
inline bool parse_json(std::string_view text, json_value& out) { return json_reader(text).read(out); }

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
