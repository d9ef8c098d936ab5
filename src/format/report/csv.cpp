// SPDX-License-Identifier: Apache-2.0
// CSV is a view for spreadsheets, not a second machine format (JSON is): raw numbers in ns,
// one row per entry, no environment and no warnings, since RFC 4180 has no place for them.
#include <string>
#include <vector>

#include "format/report/measurement_details.hpp"
#include "format/report/renderers.hpp"
#include "format/text_grid.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

// Shortest text that reads back as the same double: 812, 815.75, 1.25e+20.
std::string number(double value) {
  return text::format_exact(value);
}

}  // namespace

// Line ends are LF, not RFC 4180's CRLF: every CSV reader accepts LF and Unix tools expect it.
// Values that do not exist (count 0, or spread of one sample) are empty fields.
std::string render_csv(const Report& report) {
  Grid grid;
  for (const char* title :
       {"name", "timer", "device", "count", "median_ns", "mean_ns", "min_ns", "max_ns", "stddev_ns",
        "relative_noise", "median_ci_low_ns", "median_ci_high_ns", "median_ci_level", "q1_ns",
        "q3_ns", "p95_ns", "p99_ns", "mad_ns"}) {
    grid.columns.push_back({title});
  }
  // Only reports with engine measurements get their columns, so other CSV stays as it was.
  const bool measurements = has_measurements(report);
  const CounterColumns extra = measurement_counter_columns(report);
  if (measurements) {
    for (const std::string& title : measurement_csv_titles(extra))
      grid.columns.push_back({title});
  }
  for (const Entry& entry : report.entries) {
    const Statistics& s = entry.statistics;
    const bool any = s.count > 0;
    const auto stat = [&](double value) { return any ? number(value) : std::string(); };
    grid.rows.push_back(
        {entry.name, entry.timer, entry.device ? std::to_string(*entry.device) : "",
         std::to_string(s.count), stat(s.median), stat(s.mean), stat(s.min), stat(s.max),
         s.stddev ? number(*s.stddev) : "", s.relative_noise ? number(*s.relative_noise) : "",
         s.median_ci ? number(s.median_ci->low) : "", s.median_ci ? number(s.median_ci->high) : "",
         s.median_ci ? number(s.median_ci_level) : "", stat(s.q1), stat(s.q3), stat(s.p95),
         stat(s.p99), stat(s.mad)});
    if (measurements) {
      for (std::string& cell : measurement_csv_cells(entry, extra))
        grid.rows.back().push_back(std::move(cell));
    }
  }
  return grid_csv(grid);
}

}  // namespace kerntime::format
