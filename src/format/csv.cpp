// SPDX-License-Identifier: Apache-2.0
// CSV is a view for spreadsheets, not a second machine format (JSON is): raw numbers in ns,
// one row per entry, no environment and no warnings, since RFC 4180 has no place for them.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "format/renderers.hpp"

namespace kerntime::format_detail {
namespace {

// RFC 4180: quote a field holding a comma, quote or line break, doubling inner quotes.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Shortest text that reads back as the same double: 812, 815.75, 1.25e+20.
std::string number(double value) {
  return fmt::format("{}", value);
}

std::string line(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    out += (i > 0 ? "," : "") + cells[i];
  }
  return out + "\n";
}

}  // namespace

// Line ends are LF, not RFC 4180's CRLF: every CSV reader accepts LF and Unix tools expect it.
// Values that do not exist (count 0, or spread of one sample) are empty fields.
std::string render_csv(const Report& report) {
  std::string out =
      line({"name", "timer", "device", "count", "median_ns", "mean_ns", "min_ns", "max_ns",
            "stddev_ns", "relative_noise", "median_ci_low_ns", "median_ci_high_ns",
            "median_ci_level", "q1_ns", "q3_ns", "p95_ns", "p99_ns", "mad_ns"});
  for (const Entry& entry : report.entries) {
    const Statistics& s = entry.statistics;
    const bool any = s.count > 0;
    const auto stat = [&](double value) { return any ? number(value) : std::string(); };
    out += line(
        {field(entry.name), field(entry.timer), entry.device ? std::to_string(*entry.device) : "",
         std::to_string(s.count), stat(s.median), stat(s.mean), stat(s.min), stat(s.max),
         s.stddev ? number(*s.stddev) : "", s.relative_noise ? number(*s.relative_noise) : "",
         s.median_ci ? number(s.median_ci->low) : "", s.median_ci ? number(s.median_ci->high) : "",
         s.median_ci ? number(s.median_ci_level) : "", stat(s.q1), stat(s.q3), stat(s.p95),
         stat(s.p99), stat(s.mad)});
  }
  return out;
}

}  // namespace kerntime::format_detail
