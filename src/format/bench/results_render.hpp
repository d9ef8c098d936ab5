// SPDX-License-Identifier: Apache-2.0
// The runner's views of its measurements: a table, Markdown or CSV with the columns a
// benchmark needs (headline and its source, event time, spread, throughput, clock, stop
// reason); JSON is the report itself.
#pragma once

#include <string>
#include <vector>

#include <kerntime/format.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/report.hpp>

namespace kerntime::format {

/// Renders `measurements` in `format`; Format::json renders `report` (kerntime-report/1).
/// `report.warnings` follow the table in the table and Markdown views.
std::string render_results(const std::vector<Measurement>& measurements, const Report& report,
                           Format format);

}  // namespace kerntime::format
