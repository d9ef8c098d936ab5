// SPDX-License-Identifier: Apache-2.0
// Cells and JSON of a ValueSummary, shared by the nsys-style tables (memory operations, API
// calls, kernel launches): durations with a unit by magnitude in tables, plain ns in CSV and
// JSON; a figure that needs more values than there are is "-" (empty in CSV, absent in JSON).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/trace_summaries.hpp>

namespace kerntime::format {

/// A duration cell: format_duration() in tables, the shortest exact ns in CSV (`raw`; empty
/// when not finite).
std::string duration_cell(double ns, bool raw);

/// A percentage cell: one decimal in tables (an exponent past 12 digits), exact in CSV.
std::string percent_cell(double percent, bool raw);

/// Appends Avg, Med, Min, Max and StdDev of durations; with no values, "-" cells (empty in CSV).
void append_duration_cells(std::vector<std::string>& row, const ValueSummary& s, bool raw);

/// {"count", "total_<unit>", "average_<unit>", "median_<unit>", "min_<unit>", "max_<unit>",
/// "stddev_<unit>"}; stddev is absent below 2 values, and `with_total` false leaves out total.
nlohmann::ordered_json value_summary_json(const ValueSummary& s, const std::string& unit,
                                          bool with_total = true);

}  // namespace kerntime::format
