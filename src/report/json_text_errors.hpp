// SPDX-License-Identifier: Apache-2.0
// One wording for JSON text that cannot be parsed, shared by every report reader (kerntime's,
// Google Benchmark's, NVBench's): the source, line and column, and nlohmann's reason without
// its prefix, or the path of a number too large for a double. And one wording for a duration
// that a double holds in its unit but not in nanoseconds.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>

#include "report/json_overflow.hpp"
#include "report/json_reader.hpp"

namespace kerntime::report {

/// nlohmann counts bytes from 1 and reports the last byte it read; people want line:column.
inline std::pair<std::size_t, std::size_t> line_and_column(std::string_view text,
                                                           std::size_t byte) {
  const std::size_t offset = std::min(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, offset - line_start + 1};
}

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at ...: " prefix.
inline std::string parse_error_reason(const std::string& what) {
  const auto column = what.find("column ");
  const auto colon = column == std::string::npos ? column : what.find(": ", column);
  if (colon != std::string::npos) return what.substr(colon + 2);
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

/// The kerntime::Error for a JSON exception nlohmann threw while parsing `text` from `source`.
[[noreturn]] inline void throw_json_text_error(std::string_view text, const std::string& source,
                                               const nlohmann::json::exception& error) {
  if (const auto* syntax = dynamic_cast<const nlohmann::json::parse_error*>(&error)) {
    const auto [line, column] = line_and_column(text, syntax->byte);
    throw Error(source + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                ": invalid JSON: " + parse_error_reason(syntax->what()));
  }
  const JsonOverflow overflow = find_json_overflow(text);
  if (overflow.found) {
    const auto [line, column] = line_and_column(text, overflow.byte);
    throw Error(source + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                ": " + overflow.path + ": expected a finite number, got " + overflow.number +
                " (too large for a double)");
  }
  throw Error(source + ": invalid JSON: " + parse_error_reason(error.what()));
}

/// `value` (a duration of `ns_per_unit` nanoseconds each) in nanoseconds. 1e300 seconds is a
/// double, but not in ns: every reader rejects it at `path` in these words, showing the value as
/// the file wrote it (`written`): "expected a finite duration, got 1e+300 (too large in ns)".
inline double duration_ns(const JsonReader& reader, double value, double ns_per_unit,
                          const nlohmann::json& written, const std::string& path) {
  const double ns = value * ns_per_unit;
  if (!std::isfinite(ns)) {
    reader.fail(path,
                "expected a finite duration, got " + describe(written) + " (too large in ns)");
  }
  return ns;
}

}  // namespace kerntime::report
