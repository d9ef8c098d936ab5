// SPDX-License-Identifier: Apache-2.0
// Counting in a command's or a renderer's output: how often a piece occurs, on how many lines.
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

}  // namespace kerntime::testing
