// SPDX-License-Identifier: Apache-2.0
// Copies and memsets by operation, in the layouts of `nsys stats --report cuda_gpu_mem_time_sum`
// (Time (%), Total Time, Count, Avg, Med, Min, Max, StdDev, Operation) and cuda_gpu_mem_size_sum
// (Total, Count, Avg, Med, Min, Max, StdDev in MB, Operation; nsys's MB is 10^6 bytes).
#include <algorithm>

#include <fmt/format.h>

#include <kerntime/trace_summaries.hpp>

#include "format/trace/summary_cells.hpp"
#include "format/trace/summary_views.hpp"
#include "format/trace/trace_text.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

Grid time_grid(const std::vector<MemoryOperationSummary>& rows, bool raw) {
  const std::string unit = raw ? " (ns)" : "";
  Grid grid;
  grid.columns = {{"Time (%)"},   {"Total Time" + unit}, {"Count"},
                  {"Avg" + unit}, {"Med" + unit},        {"Min" + unit},
                  {"Max" + unit}, {"StdDev" + unit},     {"Operation", false}};
  for (const MemoryOperationSummary& row : rows) {
    std::vector<std::string> cells{percent_cell(row.time_percent, raw),
                                   duration_cell(static_cast<double>(row.duration_ns.total), raw),
                                   std::to_string(row.duration_ns.count)};
    append_duration_cells(cells, row.duration_ns, raw);
    cells.push_back(row.operation);
    grid.rows.push_back(std::move(cells));
  }
  return grid;
}

// Megabytes as nsys prints them (three decimals); CSV keeps every digit.
std::string megabytes(double bytes, bool raw) {
  const double mb = bytes / 1e6;
  return raw ? text::format_exact(mb) : text::format_fixed(mb, 3);
}

Grid size_grid(const std::vector<MemoryOperationSummary>& rows, bool raw) {
  Grid grid;
  grid.columns = {{"Total (MB)"}, {"Count"},    {"Avg (MB)"},    {"Med (MB)"},
                  {"Min (MB)"},   {"Max (MB)"}, {"StdDev (MB)"}, {"Operation", false}};
  const std::string none = raw ? "" : "-";
  for (const MemoryOperationSummary& row : rows) {
    const ValueSummary& b = row.bytes;
    grid.rows.push_back({megabytes(static_cast<double>(b.total), raw), std::to_string(b.count),
                         megabytes(b.average, raw), megabytes(b.median, raw),
                         megabytes(static_cast<double>(b.min), raw),
                         megabytes(static_cast<double>(b.max), raw),
                         b.stddev ? megabytes(*b.stddev, raw) : none, row.operation});
  }
  return grid;
}

nlohmann::ordered_json rows_json(const std::vector<MemoryOperationSummary>& rows, bool by_time) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const MemoryOperationSummary& row : rows) {
    nlohmann::ordered_json json{{"operation", row.operation}};
    if (by_time) json["time_percent"] = row.time_percent;
    json.update(
        value_summary_json(by_time ? row.duration_ns : row.bytes, by_time ? "ns" : "bytes"));
    out.push_back(std::move(json));
  }
  return out;
}

}  // namespace

std::string render_memory_time_summary(const SummaryInput& input, Format format) {
  const std::vector<MemoryOperationSummary> rows = summarize_memory_operations(input.records);
  if (format == Format::json) return summary_json("operations", rows_json(rows, true), input);
  return render_trace_grid(time_grid(rows, format == Format::csv), format) +
         summary_footer(input, format);
}

std::string render_memory_size_summary(const SummaryInput& input, Format format) {
  std::vector<MemoryOperationSummary> rows = summarize_memory_operations(input.records);
  // nsys orders this one by size.
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.bytes.total != b.bytes.total ? a.bytes.total > b.bytes.total
                                          : a.operation < b.operation;
  });
  if (format == Format::json) return summary_json("operations", rows_json(rows, false), input);
  return render_trace_grid(size_grid(rows, format == Format::csv), format) +
         summary_footer(input, format);
}

}  // namespace kerntime::format
