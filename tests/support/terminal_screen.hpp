// SPDX-License-Identifier: Apache-2.0
// What a terminal shows after some output, for tests of what is drawn on one: carriage return,
// line feed (a pseudo-terminal turns \n into \r\n), erase to the end of the line (ESC [ K) and
// printable bytes, one column each. Enough for kerntime's progress line; nothing else.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace kerntime::testing {

inline std::vector<std::string> terminal_screen(const std::string& bytes) {
  std::vector<std::string> rows(1);
  std::size_t column = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    std::string& line = rows.back();
    if (c == '\r') {
      column = 0;
    } else if (c == '\n') {
      rows.emplace_back();
      column = 0;
    } else if (bytes.compare(i, 3, "\033[K") == 0) {
      line.resize(std::min(column, line.size()));
      i += 2;
    } else {
      if (column < line.size()) {
        line[column] = c;
      } else {
        line += c;
      }
      ++column;
    }
  }
  return rows;
}

}  // namespace kerntime::testing
