// SPDX-License-Identifier: Apache-2.0
// Host API calls by function, in the layout of `nsys stats --report cuda_api_sum`: Time (%),
// Total Time, Num Calls, Avg, Med, Min, Max, StdDev, Name.
#include <kerntime/trace_summaries.hpp>

#include "format/trace/summary_cells.hpp"
#include "format/trace/summary_views.hpp"
#include "format/trace/trace_text.hpp"

namespace kerntime::format {
namespace {

Grid api_grid(const std::vector<ApiCallSummary>& rows, bool raw) {
  const std::string unit = raw ? " (ns)" : "";
  Grid grid;
  grid.columns = {{"Time (%)"},   {"Total Time" + unit}, {"Num Calls"},
                  {"Avg" + unit}, {"Med" + unit},        {"Min" + unit},
                  {"Max" + unit}, {"StdDev" + unit},     {"Name", false}};
  for (const ApiCallSummary& row : rows) {
    std::vector<std::string> cells{percent_cell(row.time_percent, raw),
                                   duration_cell(static_cast<double>(row.duration_ns.total), raw),
                                   std::to_string(row.duration_ns.count)};
    append_duration_cells(cells, row.duration_ns, raw);
    cells.push_back(row.name);
    grid.rows.push_back(std::move(cells));
  }
  return grid;
}

}  // namespace

std::string render_api_summary(const SummaryInput& input, Format format) {
  const std::vector<ApiCallSummary> rows = summarize_api_calls(input.records);
  const std::size_t nested = count_nested_driver_calls(input.records);
  if (format == Format::json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ApiCallSummary& row : rows) {
      nlohmann::ordered_json json{{"name", row.name}, {"time_percent", row.time_percent}};
      json.update(value_summary_json(row.duration_ns, "ns"));
      out.push_back(std::move(json));
    }
    return summary_json("api_calls", std::move(out), input, {{"nested_driver_calls", nested}});
  }
  const std::string table = render_trace_grid(api_grid(rows, format == Format::csv), format);
  if (format == Format::csv) return table;
  return table + summary_footer(input, format,
                                {"driver calls inside runtime calls, not counted again: " +
                                 std::to_string(nested)});
}

}  // namespace kerntime::format
