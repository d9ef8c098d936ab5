// SPDX-License-Identifier: Apache-2.0
// What a report's views show of the entries the benchmark engine measured (Entry::measurement):
// a second table under the statistics in the console and Markdown views, extra columns in CSV.
// Reports without such entries render exactly as before.
#pragma once

#include <string>
#include <vector>

#include <kerntime/report.hpp>

#include "format/counter_columns.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format {

/// The line above the table of how each entry was measured.
inline constexpr const char* kMeasurementTitle = "How the benchmark engine measured each entry:";

/// True when some entry has a measurement.
bool has_measurements(const Report& report);

/// The Items/s and counter columns that the measured entries of `report` need.
CounterColumns measurement_counter_columns(const Report& report);

/// One row per entry with a measurement: mode, timer, samples left out, warm-up, batch, L2
/// flush, blocking kernel, floor, fixed cost, SM clock, rates (Items/s and the counters when
/// some entry has them), stop reason and its detail. Names are passed through printable(), or
/// markdown_escape() when `markdown`.
Grid measurement_grid(const Report& report, bool markdown);

/// The CSV columns of a measurement (with `extra`'s: work_elements and items_per_s, then each
/// counter by its name), and their cells for `entry` (empty fields without one).
std::vector<std::string> measurement_csv_titles(const CounterColumns& extra);
std::vector<std::string> measurement_csv_cells(const Entry& entry, const CounterColumns& extra);

}  // namespace kerntime::format
