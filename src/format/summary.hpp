// SPDX-License-Identifier: Apache-2.0
// The content the table and markdown views share: which columns, what each cell says, and the
// lines about the environment. The views differ only in layout and escaping.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <kerntime/report.hpp>

namespace kerntime::format_detail {

/// Says "not enough samples" in a cell, explained by kMissingLegend under the table.
inline constexpr const char* kMissingCell = "-";
inline constexpr const char* kMissingLegend = "not enough samples";

struct SummaryColumn {
  std::string title;
  bool right_aligned = true;  ///< numbers are right-aligned, names left-aligned
};

/// One row per entry, cells already formatted (durations with units, noise in percent).
struct Summary {
  std::vector<SummaryColumn> columns;
  std::vector<std::vector<std::string>> rows;
  bool has_missing = false;  ///< some cell is kMissingCell, so the legend is needed
};

/// The summary of `report`; entry names are passed through printable().
Summary summarize(const Report& report);

/// Lines saying where and with what the report was measured; empty when nothing is known.
std::vector<std::string> environment_lines(const Environment& environment);

/// `text` with control characters written as escapes (\n, \t, \x1b), so that a name can never
/// break a table row or a line.
std::string printable(const std::string& text);

/// Columns `text` takes in a terminal, counting UTF-8 code points (wide CJK characters are
/// counted as one; kernel names are ASCII in practice).
std::size_t display_width(const std::string& text);

}  // namespace kerntime::format_detail
