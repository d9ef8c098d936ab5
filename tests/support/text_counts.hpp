// SPDX-License-Identifier: Apache-2.0
// Counting in a command's or a renderer's output: how often a piece occurs, on how many lines;
// and what a piece of text reads as in the HTML and XML views.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>

namespace kerntime::testing {

/// How often `part` occurs in `text`, overlapping occurrences included.
inline std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

/// How many lines of `text` contain `part`.
inline int count_lines_with(const std::string& text, const std::string& part) {
  int n = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    n += line.find(part) != std::string::npos ? 1 : 0;
  }
  return n;
}

/// `text` with & < > " ' as character references, as the markup views must write a name or a
/// reason; written here apart from the views' own escaping, so that a test can check it.
inline std::string as_markup(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const char* reference = c == '&'    ? "&amp;"
                            : c == '<'  ? "&lt;"
                            : c == '>'  ? "&gt;"
                            : c == '"'  ? "&quot;"
                            : c == '\'' ? "&apos;"
                                        : nullptr;
    if (reference != nullptr) {
      out += reference;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace kerntime::testing
