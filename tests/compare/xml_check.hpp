// SPDX-License-Identifier: Apache-2.0
// A small XML 1.0 well-formedness checker for the JUnit output, so the tests need no XML
// library: balanced tags, quoted attributes, valid entities, no forbidden characters.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace kerntime::testing {

/// Empty when `xml` is well-formed (one root element), else what is wrong and where.
inline std::string xml_problem(const std::string& xml) {
  std::size_t i = 0;
  std::vector<std::string> open;
  int roots = 0;
  const auto at = [&](const std::string& what) {
    return what + " at offset " + std::to_string(i) + ": '" + xml.substr(i, 30) + "'";
  };
  const auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':' || c == '-' ||
           c == '.';
  };
  const auto check_text = [&](std::size_t from, std::size_t to, bool attribute) -> std::string {
    for (std::size_t k = from; k < to; ++k) {
      const auto c = static_cast<unsigned char>(xml[k]);
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control character";
      if (c == '<') return "raw '<'";
      if (attribute && c == '"') return "raw '\"' in attribute";
      if (c == '&') {
        const std::size_t semi = xml.find(';', k);
        if (semi == std::string::npos || semi > to) return "unterminated entity";
        const std::string entity = xml.substr(k + 1, semi - k - 1);
        if (entity != "amp" && entity != "lt" && entity != "gt" && entity != "quot" &&
            entity != "apos" && (entity.empty() || entity[0] != '#')) {
          return "unknown entity &" + entity + ";";
        }
      }
    }
    return {};
  };
  if (xml.compare(0, 5, "<?xml") == 0) {
    i = xml.find("?>");
    if (i == std::string::npos) return "unterminated declaration";
    i += 2;
  }
  while (i < xml.size()) {
    const std::size_t lt = xml.find('<', i);
    const std::size_t text_end = lt == std::string::npos ? xml.size() : lt;
    if (const std::string p = check_text(i, text_end, false); !p.empty()) return at(p);
    if (open.empty() && xml.find_first_not_of(" \t\r\n", i) < text_end) {
      return at("text outside the root element");
    }
    if (lt == std::string::npos) break;
    i = lt + 1;
    const bool closing = i < xml.size() && xml[i] == '/';
    if (closing) ++i;
    const std::size_t name_start = i;
    while (i < xml.size() && name_char(xml[i]))
      ++i;
    const std::string name = xml.substr(name_start, i - name_start);
    if (name.empty()) return at("missing tag name");
    if (closing) {
      if (open.empty() || open.back() != name) return at("mismatched </" + name + ">");
      open.pop_back();
      while (i < xml.size() && std::isspace(static_cast<unsigned char>(xml[i])))
        ++i;
      if (i >= xml.size() || xml[i] != '>') return at("bad closing tag");
      ++i;
      continue;
    }
    while (true) {
      while (i < xml.size() && std::isspace(static_cast<unsigned char>(xml[i])))
        ++i;
      if (i >= xml.size()) return at("unterminated tag");
      if (xml[i] == '>' || xml.compare(i, 2, "/>") == 0) break;
      const std::size_t attribute_start = i;
      while (i < xml.size() && name_char(xml[i]))
        ++i;
      if (i == attribute_start) return at("bad attribute name");
      if (xml.compare(i, 2, "=\"") != 0) return at("attribute without =\"");
      i += 2;
      const std::size_t value_end = xml.find('"', i);
      if (value_end == std::string::npos) return at("unterminated attribute");
      if (const std::string p = check_text(i, value_end, true); !p.empty()) return at(p);
      i = value_end + 1;
    }
    if (open.empty()) ++roots;
    if (xml[i] == '/') {
      i += 2;
    } else {
      open.push_back(name);
      ++i;
    }
  }
  if (!open.empty()) return "unclosed <" + open.back() + ">";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return {};
}

}  // namespace kerntime::testing
