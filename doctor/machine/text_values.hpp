// The few small text formats discovery reads, each by what it needs and nothing more: Python
// assignments of literals (torch/version.py, TensorFlow's build_info.py, ONNX Runtime's
// build_and_package_info.py), a distribution's METADATA headers, "key = value" files
// (pyvenv.cfg), the "cuda" entry of a toolkit's version.json, C #defines (cudnn_version.h,
// patchlevel.h). Garbage reads as "not there"; nothing here can fail otherwise.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cushim {
namespace detail {
namespace {
namespace discovery {

inline std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Calls visit(line) for each line of `text`, '\r' removed.
template <class Visit>
void for_each_line(std::string_view text, Visit visit) {
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    visit(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

inline bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A Python literal as a version file writes it.
struct py_value {
  enum class kind { none, string, boolean, number, list, other } type = kind::other;
  std::string text;                // a string's characters, "True"/"False", the number as written
  std::vector<std::string> items;  // a list's strings
};

// A quoted string at the start of `s` ('...' or "...", backslash escapes kept as the escaped
// character); `rest` receives what follows. False when `s` does not start with a whole one.
inline bool read_quoted(std::string_view s, std::string& out, std::string_view& rest) {
  if (s.empty() || (s[0] != '\'' && s[0] != '"')) return false;
  char quote = s[0];
  out.clear();
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[++i];
    } else if (s[i] == quote) {
      rest = s.substr(i + 1);
      return true;
    } else if (s[i] == '\n') {
      return false;
    } else {
      out += s[i];
    }
  }
  return false;
}

inline py_value parse_py_value(std::string_view s) {
  s = trimmed(s);
  py_value v;
  std::string_view rest;
  if (read_quoted(s, v.text, rest)) {
    v.type = py_value::kind::string;
  } else if (s == "None") {
    v.type = py_value::kind::none;
  } else if (s == "True" || s == "False") {
    v.type = py_value::kind::boolean;
    v.text = std::string(s);
  } else if (!s.empty() && s.front() == '[') {
    v.type = py_value::kind::list;
    std::string_view items = s.substr(1);
    for (;;) {
      items = trimmed(items);
      std::string item;
      if (!read_quoted(items, item, rest)) break;
      v.items.push_back(item);
      items = trimmed(rest);
      if (items.empty() || items.front() != ',') break;
      items.remove_prefix(1);
    }
  } else if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-')) {
    v.type = py_value::kind::number;
    v.text = std::string(s);
  }
  return v;
}

// The top-level assignments of a generated Python file, name -> value, in order: `name = v`,
// `name: Optional[str] = v`, `build_info['name'] = v`, and the `'name': v,` entries of a dict
// literal. A list may go on over lines until its ']'. Later assignments of a name win.
inline std::vector<std::pair<std::string, py_value>> python_assignments(std::string_view text) {
  std::vector<std::pair<std::string, py_value>> values;
  std::string pending_name, pending_list;  // a list whose ']' has not come yet
  auto put = [&](std::string name, py_value v) {
    for (auto& known : values) {
      if (known.first == name) return void(known.second = std::move(v));
    }
    values.emplace_back(std::move(name), std::move(v));
  };
  for_each_line(text, [&](std::string_view raw) {
    std::string_view line = trimmed(raw);
    if (!pending_name.empty()) {
      pending_list.append(line.data(), line.size());
      if (line.find(']') != std::string_view::npos || pending_list.size() > 65536) {
        put(pending_name, parse_py_value(pending_list));
        pending_name.clear();
      }
      return;
    }
    if (line.empty() || line[0] == '#') return;
    std::string name;
    std::string_view value;
    std::string_view rest;
    if (read_quoted(line, name, rest)) {  // 'name': value,
      rest = trimmed(rest);
      if (rest.empty() || rest[0] != ':') return;
      value = trimmed(rest.substr(1));
      if (!value.empty() && value.back() == ',') value.remove_suffix(1);
    } else {
      std::size_t n = 0;
      while (n < line.size() && is_identifier_char(line[n])) ++n;
      if (n == 0 || std::isdigit(static_cast<unsigned char>(line[0]))) return;
      name = std::string(line.substr(0, n));
      rest = trimmed(line.substr(n));
      if (!rest.empty() && rest[0] == '[') {  // build_info['name'] = value
        if (!read_quoted(trimmed(rest.substr(1)), name, rest)) return;
        rest = trimmed(rest);
        if (rest.empty() || rest[0] != ']') return;
        rest = trimmed(rest.substr(1));
      } else if (!rest.empty() && rest[0] == ':') {  // name: Optional[str] = value
        std::size_t equals = rest.find('=');
        if (equals == std::string_view::npos) return;
        rest = rest.substr(equals);
      }
      if (rest.size() < 2 || rest[0] != '=' || rest[1] == '=') return;
      value = trimmed(rest.substr(1));
    }
    if (!value.empty() && value.front() == '[' && value.find(']') == std::string_view::npos) {
      pending_name = name;
      pending_list = std::string(value);
      return;
    }
    put(name, parse_py_value(value));
  });
  return values;
}

inline const py_value* find_value(const std::vector<std::pair<std::string, py_value>>& values, std::string_view name) {
  for (const auto& v : values) {
    if (v.first == name) return &v.second;
  }
  return nullptr;
}

// The headers of a METADATA (or PKG-INFO) file, up to its first empty line: name -> values.
inline std::vector<std::pair<std::string, std::string>> metadata_headers(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> headers;
  bool done = false;
  for_each_line(text, [&](std::string_view line) {
    if (done) return;
    if (trimmed(line).empty()) return void(done = true);
    if (line[0] == ' ' || line[0] == '\t') return;  // a continuation line
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return;
    headers.emplace_back(std::string(line.substr(0, colon)), std::string(trimmed(line.substr(colon + 1))));
  });
  return headers;
}

inline std::string header_value(const std::vector<std::pair<std::string, std::string>>& headers,
                                std::string_view name) {
  for (const auto& h : headers) {
    if (h.first == name) return h.second;
  }
  return {};
}

// "key = value" lines (pyvenv.cfg): the value of `key`; empty when it is not there.
inline std::string config_value(std::string_view text, std::string_view key) {
  std::string found;
  for_each_line(text, [&](std::string_view line) {
    std::size_t equals = line.find('=');
    if (equals == std::string_view::npos || !found.empty()) return;
    if (trimmed(line.substr(0, equals)) == key) found = std::string(trimmed(line.substr(equals + 1)));
  });
  return found;
}

// The "version" string of a top-level object of a toolkit's version.json ({"cuda": {"name":
// "CUDA SDK", "version": "12.4.1"}, "cuda_cudart": {...}}): "cuda" for the toolkit's own, a
// component's name ("cuda_cudart") for that component's. Empty when there is none. Not a JSON
// reader: it looks for that one value.
inline std::string version_json_component(std::string_view text, std::string_view component) {
  std::string key = "\"" + std::string(component) + "\"";
  for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    std::string_view rest = trimmed(text.substr(at + key.size()));
    if (rest.empty() || rest[0] != ':') continue;
    rest = trimmed(rest.substr(1));
    if (rest.empty() || rest[0] != '{') continue;
    std::string_view object = rest.substr(0, rest.find('}'));
    std::size_t key = object.find("\"version\"");
    if (key == std::string_view::npos) return {};
    std::string_view value = trimmed(object.substr(key + 9));
    if (value.empty() || value[0] != ':') return {};
    std::string version;
    std::string_view after;
    return read_quoted(trimmed(value.substr(1)), version, after) ? version : std::string();
  }
  return {};
}

inline std::string version_json_cuda(std::string_view text) { return version_json_component(text, "cuda"); }

// "CUDA Version 11.0.228" (version.txt, CUDA 11.0 and before) -> "11.0.228".
inline std::string version_txt_cuda(std::string_view text) {
  const std::string_view prefix = "CUDA Version ";
  std::size_t at = text.find(prefix);
  if (at == std::string_view::npos) return {};
  std::string_view rest = text.substr(at + prefix.size());
  std::size_t n = 0;
  while (n < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[n])) || rest[n] == '.')) ++n;
  return std::string(rest.substr(0, n));
}

// The value of `#define name value` (a number or a quoted string, quotes removed); empty when
// `text` has no such line.
inline std::string define_value(std::string_view text, std::string_view name) {
  std::string found;
  for_each_line(text, [&](std::string_view raw) {
    if (!found.empty()) return;
    std::string_view line = trimmed(raw);
    if (line.substr(0, 1) != "#") return;
    line = trimmed(line.substr(1));
    if (line.substr(0, 6) != "define") return;
    line = trimmed(line.substr(6));
    if (line.substr(0, name.size()) != name || line.size() == name.size() || is_identifier_char(line[name.size()])) {
      return;
    }
    std::string_view value = trimmed(line.substr(name.size()));
    std::string quoted;
    std::string_view after;
    if (read_quoted(value, quoted, after)) {
      found = quoted;
    } else {
      std::size_t n = 0;
      while (n < value.size() && is_identifier_char(value[n])) ++n;
      found = std::string(value.substr(0, n));
    }
  });
  return found;
}

// The leading "M.m[.p...]" of `text` as numbers; false when it does not start with "M.m".
inline bool version_numbers(std::string_view text, std::vector<int>& parts) {
  parts.clear();
  std::size_t i = 0;
  while (i < text.size() && parts.size() < 6) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) break;
    long value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && value < 100000000) {
      value = value * 10 + (text[i++] - '0');
    }
    parts.push_back(int(value));
    if (i >= text.size() || text[i] != '.') break;
    ++i;
  }
  return parts.size() >= 2;
}

// "12.4.1" -> 1204 (major * 100 + minor, as cuda_range counts); 0 when it is no version.
inline int cuda_minor_key(std::string_view version) {
  std::vector<int> parts;
  if (!version_numbers(version, parts) || parts[1] > 99) return 0;
  return parts[0] * 100 + parts[1];
}

// The first `count` parts of a version: "9.1.0.70", 3 -> "9.1.0".
inline std::string leading_parts(std::string_view version, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t dots = 0; end < version.size(); ++end) {
    if (version[end] == '.' && ++dots == count) break;
  }
  return std::string(version.substr(0, end));
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
