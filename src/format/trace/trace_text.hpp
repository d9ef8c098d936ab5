// SPDX-License-Identifier: Apache-2.0
// Trace tables on the shared text grid, the footer every trace table ends with, and the counts
// every JSON view of a trace carries.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/format.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>

#include "format/text_grid.hpp"

namespace kerntime::format_detail {

/// Renders `grid` as a table, Markdown or CSV (Format::json is not a grid view). Text in
/// left-aligned columns (names) is escaped for the format; "(none)" stands for no rows.
std::string render_trace_grid(Grid grid, Format format);

/// The trace's record counts, always including dropped records and records without
/// timestamps, then one "warning: ..." line per warning. For Markdown, lines end in a break.
std::string trace_footer(const Trace& trace, Format format);
/// The same footer from a report's record counts and warnings (a report's trace section).
std::string counts_footer(const TraceCounts& counts, const std::vector<std::string>& warnings,
                          Format format);

/// Adds "counts" (the report's writer: record counts and every loss counter) and "warnings",
/// so no reader of a JSON view misses a loss.
void add_trace_counts(nlohmann::ordered_json& out, const Trace& trace);

/// The per-NVTX-range grid of a report's trace section (range_table.cpp), and its rows as JSON.
Grid range_grid(const std::vector<RangeSummary>& rows, bool raw);
nlohmann::ordered_json range_rows_json(const std::vector<RangeSummary>& rows);

/// "128x1x1".
std::string dimensions(const Dim3& dim);

}  // namespace kerntime::format_detail
