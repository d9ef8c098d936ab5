// SPDX-License-Identifier: Apache-2.0
// The per-kernel table in the layout of `nsys stats --report cuda_gpu_kern_gb_sum`, so users
// read it without a legend; durations carry their unit, except in CSV (plain ns).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace_format.hpp>

#include "format/trace/summary_cells.hpp"
#include "format/trace/trace_text.hpp"
#include "io/json_text.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime {
namespace format_detail {
namespace {

constexpr const char* kNone = "-";

std::string launch_config(const KernelSummary& row, const Dim3& dim) {
  return row.mixed_launch_config ? "mixed" : dimensions(dim);
}

Grid kernel_grid(const std::vector<KernelSummary>& rows, bool raw) {
  const std::string unit = raw ? " (ns)" : "";
  Grid grid;
  grid.columns = {{"Time (%)"},   {"Total Time" + unit}, {"Instances"},  {"Avg" + unit},
                  {"Med" + unit}, {"Min" + unit},        {"Max" + unit}, {"StdDev" + unit},
                  {"GridXYZ"},    {"BlockXYZ"},          {"Name", false}};
  auto duration = [raw](double ns) { return duration_cell(ns, raw); };
  for (const KernelSummary& row : rows) {
    grid.rows.push_back(
        {percent_cell(row.time_percent, raw), duration(static_cast<double>(row.total_ns)),
         std::to_string(row.instances), duration(row.average_ns), duration(row.median_ns),
         duration(static_cast<double>(row.min_ns)), duration(static_cast<double>(row.max_ns)),
         row.stddev_ns ? duration(*row.stddev_ns) : (raw ? "" : kNone),
         launch_config(row, row.grid), launch_config(row, row.block), row.name});
  }
  return grid;
}

// The rows in the report's shape (one writer: report_detail::kernel_summary_json), then the
// counts every JSON view carries.
std::string kernel_json(const Trace& trace, const std::vector<KernelSummary>& rows) {
  nlohmann::ordered_json out;
  out["kernels"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out["kernels"].push_back(
        report_detail::kernel_summary_json(rows[i], "kernels[" + std::to_string(i) + "]"));
  }
  add_trace_counts(out, trace);
  return io::dump_json(out, 2) + "\n";
}

}  // namespace
}  // namespace format_detail

std::string render_kernel_summary(const Report& report, Format format) {
  if (!report.trace) {
    throw Error(
        "the report has no trace section, so no per-kernel summary: record with a "
        "kerntime::Tracer (attach_trace) or `kerntime run`");
  }
  const std::vector<KernelSummary>& rows = report.trace->kernel_summary;
  if (format == Format::json) {
    nlohmann::ordered_json out;
    out["kernels"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      out["kernels"].push_back(
          report_detail::kernel_summary_json(rows[i], "kernels[" + std::to_string(i) + "]"));
    }
    if (!report.trace->range_summary.empty()) {
      out["ranges"] = format_detail::range_rows_json(report.trace->range_summary);
    }
    out["counts"] = report_detail::counts_json(report.trace->counts);
    out["warnings"] = report.warnings;
    return io::dump_json(out, 2) + "\n";
  }
  std::string text = format_detail::render_trace_grid(
      format_detail::kernel_grid(rows, format == Format::csv), format);
  if (!report.trace->range_summary.empty()) text += "\n" + render_range_summary(report, format);
  return format == Format::csv
             ? text
             : text + format_detail::counts_footer(report.trace->counts, report.warnings, format);
}

std::string render_kernel_summary(const Trace& trace, Format format,
                                  const KernelSummaryOptions& options) {
  const std::vector<KernelSummary> rows = summarize_kernels(trace, options);
  if (format == Format::json) return format_detail::kernel_json(trace, rows);
  const std::string table = format_detail::render_trace_grid(
      format_detail::kernel_grid(rows, format == Format::csv), format);
  return format == Format::csv ? table : table + format_detail::trace_footer(trace, format);
}

}  // namespace kerntime
