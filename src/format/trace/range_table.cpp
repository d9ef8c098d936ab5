// SPDX-License-Identifier: Apache-2.0
// The per-NVTX-range table of a `kerntime run` report, in the spirit of the Tracer's per-scope
// table: how often each range ran and for how long on the host, beside the kernels launched
// inside it and their GPU time (nested ranges' included, and its own).
#include <algorithm>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/trace_format.hpp>

#include "format/name_column.hpp"
#include "format/trace/summary_cells.hpp"
#include "format/trace/trace_text.hpp"
#include "io/json_text.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime {
namespace format {

RangeGrid range_grid(const std::vector<RangeSummary>& rows, Format format, NameStyle names) {
  const bool raw = format == Format::csv;
  const std::string unit = raw ? " (ns)" : "";
  RangeGrid out;
  Grid& grid = out.grid;
  grid.columns = {{"Range", false},     {"Instances"},       {"Range Total" + unit},
                  {"Range Med" + unit}, {"Kernels"},         {"Kernel Time" + unit},
                  {"Self Kernels"},     {"Self Time" + unit}};
  auto duration = [raw](double ns) { return duration_cell(ns, raw); };
  std::vector<std::string> full;
  for (const RangeSummary& row : rows) {
    full.push_back(row.domain.empty() ? row.name : row.domain + ":" + row.name);
    grid.rows.push_back(
        {std::string{}, std::to_string(row.instances), duration(static_cast<double>(row.total_ns)),
         duration(row.median_ns), std::to_string(row.kernels),
         duration(static_cast<double>(row.kernel_time_ns)), std::to_string(row.self_kernels),
         duration(static_cast<double>(row.self_kernel_time_ns))});
  }
  // A range's name is the program's text, not a symbol: only cut, to the terminal's width.
  const std::size_t width = format == Format::table
                                ? std::max(column_room(grid, 0, kTerminalColumns), kMinNameColumns)
                                : text::kShortNameWidth;
  const NameColumn shown(
      raw ? NameStyle::full : names, rows.size(),
      [&full](std::size_t i) { return std::string_view{full[i]}; }, width, text::NameKind::text);
  for (std::size_t i = 0; i < rows.size(); ++i)
    grid.rows[i][0] = shown(i);
  out.shortened = shown.shortened();
  out.numbered = shown.numbered();
  return out;
}

nlohmann::ordered_json range_rows_json(const std::vector<RangeSummary>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.push_back(report::range_summary_json(rows[i], "ranges[" + std::to_string(i) + "]"));
  }
  return out;
}

}  // namespace format

std::string render_range_summary(const Report& report, Format format, NameStyle names) {
  if (!report.trace) {
    throw Error(
        "the report has no trace section, so no per-range summary: record with `kerntime run`");
  }
  const std::vector<RangeSummary>& rows = report.trace->range_summary;
  if (format == Format::json) {
    nlohmann::ordered_json out;
    out["ranges"] = format::range_rows_json(rows);
    return io::dump_json(out, 2) + "\n";
  }
  return format::render_trace_grid(format::range_grid(rows, format, names).grid, format);
}

}  // namespace kerntime
