// SPDX-License-Identifier: Apache-2.0
// Text in kerntime's markup, the HTML pages and the JUnit XML: every user-given string (names,
// reasons, file names) escaped for element content and attribute values alike. &apos; is valid
// in XML and in HTML5.
#pragma once

#include <string>

#include "format/text_grid.hpp"

namespace kerntime::format {

/// printable(text) with & < > " ' as character references.
inline std::string markup_text(const std::string& text) {
  std::string out;
  for (char c : printable(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace kerntime::format
