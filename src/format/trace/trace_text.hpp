// SPDX-License-Identifier: Apache-2.0
// Trace tables on the shared text grid, the footer every trace table ends with, and the counts
// every JSON view of a trace carries.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/format.hpp>
#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>

#include "format/text_grid.hpp"

namespace kerntime::format {

/// Renders `grid` as a table, Markdown or CSV (Format::json is not a grid view). Text in
/// left-aligned columns (names) is escaped for the format; "(none)" stands for no rows.
std::string render_trace_grid(Grid grid, Format format);

/// The trace's record counts, always including dropped records and records without
/// timestamps, then "note: `note`" when there is one, then one "warning: ..." line per
/// warning. For Markdown, lines end in a break; in a table, a note or warning wider than a
/// terminal continues on the next lines (footer_line()).
std::string trace_footer(const Trace& trace, Format format, const std::string& note = {});
/// The same footer from a report's record counts and warnings (a report's trace section).
std::string counts_footer(const TraceCounts& counts, const std::vector<std::string>& warnings,
                          Format format, const std::string& note = {});

/// One line under a trace table: `prefix` + `text`, wrapped to 120 columns in a table, ending in
/// a Markdown line break in Markdown.
std::string footer_line(const std::string& prefix, const std::string& text, Format format);

/// Adds "counts" (the report's writer: record counts and every loss counter) and "warnings",
/// so no reader of a JSON view misses a loss.
void add_trace_counts(nlohmann::ordered_json& out, const Trace& trace);

/// The per-NVTX-range grid of a report's trace section (range_table.cpp) in `format`'s cells
/// (raw ns in CSV), with its names as `names` asks; and its rows as JSON.
struct RangeGrid {
  Grid grid;
  bool shortened = false;  ///< some range name is cut
  bool numbered = false;   ///< some cut names are numbered apart
};
RangeGrid range_grid(const std::vector<RangeSummary>& rows, Format format, NameStyle names);
nlohmann::ordered_json range_rows_json(const std::vector<RangeSummary>& rows);

/// "128x1x1".
std::string dimensions(const Dim3& dim);

}  // namespace kerntime::format
