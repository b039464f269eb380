// The tags of the small XML files discovery reads (PyCharm's .idea/misc.xml and its
// options/jdk.table.xml): each start and end tag in order, with its attributes, entities decoded.
// Not an XML reader: comments, declarations and text between tags are skipped, and a tag that
// does not close ends the scan. Bounded by the text, which is a bounded read already.
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

struct xml_tag {
  std::string name;
  bool end = false;          // </name>
  bool self_closed = false;  // <name ... />
  std::vector<std::pair<std::string, std::string>> attributes;

  std::string attribute(std::string_view key) const {
    for (const auto& a : attributes) {
      if (a.first == key) return a.second;
    }
    return {};
  }
};

// &quot; &amp; &lt; &gt; &apos; and &#NN; / &#xNN; (ASCII); others kept as written.
inline std::string xml_decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 8) {
      out += s[i];
      continue;
    }
    std::string_view entity = s.substr(i + 1, semi - i - 1);
    char c = entity == "quot"   ? '"'
             : entity == "amp"  ? '&'
             : entity == "lt"   ? '<'
             : entity == "gt"   ? '>'
             : entity == "apos" ? '\''
                                : '\0';
    if (!c && entity.size() > 1 && entity[0] == '#') {
      long code = entity[1] == 'x' ? std::strtol(std::string(entity.substr(2)).c_str(), nullptr, 16)
                                   : std::strtol(std::string(entity.substr(1)).c_str(), nullptr, 10);
      if (code > 0 && code < 128) c = char(code);
    }
    if (!c) {
      out += s[i];
      continue;
    }
    out += c;
    i = semi;
  }
  return out;
}

// Every tag of `text`, in order.
inline std::vector<xml_tag> xml_tags(std::string_view text) {
  std::vector<xml_tag> tags;
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string_view::npos) {
    if (text.compare(at, 4, "<!--") == 0) {
      std::size_t end = text.find("-->", at + 4);
      if (end == std::string_view::npos) break;
      at = end + 3;
      continue;
    }
    std::size_t close = text.find('>', at);
    if (close == std::string_view::npos) break;
    std::string_view inside = text.substr(at + 1, close - at - 1);
    at = close + 1;
    if (inside.empty() || inside[0] == '?' || inside[0] == '!') continue;
    xml_tag tag;
    if (inside[0] == '/') {
      tag.end = true;
      inside.remove_prefix(1);
    }
    if (!inside.empty() && inside.back() == '/') {
      tag.self_closed = true;
      inside.remove_suffix(1);
    }
    std::size_t i = 0;
    while (i < inside.size() && !std::isspace(static_cast<unsigned char>(inside[i]))) ++i;
    tag.name = std::string(inside.substr(0, i));
    while (i < inside.size()) {
      while (i < inside.size() && std::isspace(static_cast<unsigned char>(inside[i]))) ++i;
      std::size_t equals = inside.find('=', i);
      if (equals == std::string_view::npos) break;
      std::string key(inside.substr(i, equals - i));
      while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
      std::size_t quote = equals + 1;
      while (quote < inside.size() && std::isspace(static_cast<unsigned char>(inside[quote]))) ++quote;
      if (quote >= inside.size() || (inside[quote] != '"' && inside[quote] != '\'')) break;
      std::size_t end = inside.find(inside[quote], quote + 1);
      if (end == std::string_view::npos) break;
      tag.attributes.emplace_back(key, xml_decoded(inside.substr(quote + 1, end - quote - 1)));
      i = end + 1;
    }
    tags.push_back(std::move(tag));
  }
  return tags;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
