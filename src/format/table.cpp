// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <string>
#include <vector>

#include "format/renderers.hpp"
#include "format/summary.hpp"

namespace kerntime::format_detail {
namespace {

std::string pad(const std::string& text, std::size_t width, bool right_aligned) {
  const std::string fill(width - std::min(width, display_width(text)), ' ');
  return right_aligned ? fill + text : text + fill;
}

// Two spaces between columns; no trailing blanks, so output diffs cleanly.
std::string row_line(const std::vector<std::string>& cells, const std::vector<std::size_t>& widths,
                     const std::vector<SummaryColumn>& columns) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += "  ";
    line += pad(cells[i], widths[i], columns[i].right_aligned);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

}  // namespace

// The environment first (which GPU these numbers are about), then the table, then what a
// reader must know before trusting it: the legend for "-" and every warning.
std::string render_table(const Report& report) {
  std::string out;
  const std::vector<std::string> environment = environment_lines(report.environment);
  for (const std::string& line : environment) {
    out += line + "\n";
  }
  if (!environment.empty()) out += "\n";

  const Summary summary = summarize(report);
  std::vector<std::string> titles;
  std::vector<std::size_t> widths;
  for (const SummaryColumn& column : summary.columns) {
    titles.push_back(column.title);
    widths.push_back(display_width(column.title));
  }
  for (const auto& row : summary.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  }
  std::vector<std::string> rules;
  for (const std::size_t width : widths) {
    rules.emplace_back(width, '-');
  }

  out += row_line(titles, widths, summary.columns);
  out += row_line(rules, widths, summary.columns);
  for (const auto& row : summary.rows) {
    out += row_line(row, widths, summary.columns);
  }
  if (summary.rows.empty()) out += "(no entries)\n";

  if (summary.has_missing) out += std::string("\n") + kMissingCell + ": " + kMissingLegend + "\n";
  if (!report.warnings.empty()) out += "\n";
  for (const std::string& warning : report.warnings) {
    out += "warning: " + printable(warning) + "\n";
  }
  return out;
}

}  // namespace kerntime::format_detail
