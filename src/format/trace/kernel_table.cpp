// SPDX-License-Identifier: Apache-2.0
// The per-kernel table in the layout of `nsys stats --report cuda_gpu_kern_gb_sum`, so users
// read it without a legend; durations carry their unit, except in CSV (plain ns). With short
// names, the terminal table keeps the columns that fit 120 terminal columns.
#include <algorithm>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace_format.hpp>

#include "format/name_column.hpp"
#include "format/trace/summary_cells.hpp"
#include "format/trace/trace_text.hpp"
#include "io/json_text.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime {
namespace format {
namespace {

constexpr const char* kNone = "-";

struct KernelGrid {
  Grid grid;
  bool shortened = false;
  bool numbered = false;
};

std::string launch_config(const KernelSummary& row, const Dim3& dim) {
  return row.mixed_launch_config ? "mixed" : dimensions(dim);
}

// nsys's columns; a terminal table of short names keeps those that fit 120 columns beside the
// name: Avg is Total Time over Instances, and StdDev and the launch configuration (unless the
// rows are per configuration) make way for it.
KernelGrid kernel_grid(const std::vector<KernelSummary>& rows, Format format, NameStyle names,
                       bool by_launch_config) {
  const bool raw = format == Format::csv;
  const bool compact = format == Format::table && names == NameStyle::short_form;
  const std::string unit = raw ? " (ns)" : "";
  KernelGrid out;
  Grid& grid = out.grid;
  auto duration = [raw](double ns) { return duration_cell(ns, raw); };
  if (compact) {
    grid.columns = {{"Time (%)"}, {"Total Time"}, {"Instances"}, {"Med"}, {"Min"}, {"Max"}};
    if (by_launch_config) grid.columns.insert(grid.columns.end(), {{"GridXYZ"}, {"BlockXYZ"}});
    grid.columns.push_back({"Name", false});
    for (const KernelSummary& row : rows) {
      grid.rows.push_back(
          {percent_cell(row.time_percent, raw), duration(static_cast<double>(row.total_ns)),
           std::to_string(row.instances), duration(row.median_ns),
           duration(static_cast<double>(row.min_ns)), duration(static_cast<double>(row.max_ns))});
      if (by_launch_config) {
        grid.rows.back().insert(grid.rows.back().end(),
                                {launch_config(row, row.grid), launch_config(row, row.block)});
      }
      grid.rows.back().emplace_back();
    }
  } else {
    grid.columns = {{"Time (%)"},   {"Total Time" + unit}, {"Instances"},  {"Avg" + unit},
                    {"Med" + unit}, {"Min" + unit},        {"Max" + unit}, {"StdDev" + unit},
                    {"GridXYZ"},    {"BlockXYZ"},          {"Name", false}};
    for (const KernelSummary& row : rows) {
      grid.rows.push_back(
          {percent_cell(row.time_percent, raw), duration(static_cast<double>(row.total_ns)),
           std::to_string(row.instances), duration(row.average_ns), duration(row.median_ns),
           duration(static_cast<double>(row.min_ns)), duration(static_cast<double>(row.max_ns)),
           row.stddev_ns ? duration(*row.stddev_ns) : (raw ? "" : kNone),
           launch_config(row, row.grid), launch_config(row, row.block), std::string{}});
    }
  }
  const std::size_t name = grid.columns.size() - 1;
  const std::size_t width =
      compact ? std::max(column_room(grid, name, kTerminalColumns), kMinNameColumns)
              : text::kShortNameWidth;
  const NameColumn shown(
      raw ? NameStyle::full : names, rows.size(),
      [&rows](std::size_t i) { return std::string_view{rows[i].name}; }, width);
  for (std::size_t i = 0; i < rows.size(); ++i)
    grid.rows[i][name] = shown(i);
  out.shortened = shown.shortened();
  out.numbered = shown.numbered();
  return out;
}

// The rows in the report's shape (one writer: report::kernel_summary_json), then the
// counts every JSON view carries.
std::string kernel_json(const Trace& trace, const std::vector<KernelSummary>& rows) {
  nlohmann::ordered_json out;
  out["kernels"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out["kernels"].push_back(
        report::kernel_summary_json(rows[i], "kernels[" + std::to_string(i) + "]"));
  }
  add_trace_counts(out, trace);
  return io::dump_json(out, 2) + "\n";
}

}  // namespace
}  // namespace format

std::string render_kernel_summary(const Report& report, Format format, NameStyle names) {
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
          report::kernel_summary_json(rows[i], "kernels[" + std::to_string(i) + "]"));
    }
    if (!report.trace->range_summary.empty()) {
      out["ranges"] = format::range_rows_json(report.trace->range_summary);
    }
    out["counts"] = report::counts_json(report.trace->counts);
    out["warnings"] = report.warnings;
    return io::dump_json(out, 2) + "\n";
  }
  const format::KernelGrid kernels = format::kernel_grid(rows, format, names, false);
  std::string text = format::render_trace_grid(kernels.grid, format);
  bool shortened = kernels.shortened;
  bool numbered = kernels.numbered;
  if (!report.trace->range_summary.empty()) {
    const format::RangeGrid ranges = format::range_grid(report.trace->range_summary, format, names);
    text += "\n" + format::render_trace_grid(ranges.grid, format);
    shortened = shortened || ranges.shortened;
    numbered = numbered || ranges.numbered;
  }
  return format == Format::csv
             ? text
             : text + format::counts_footer(report.trace->counts, report.warnings, format,
                                            format::names_note(shortened, numbered));
}

std::string render_kernel_summary(const Trace& trace, Format format,
                                  const KernelSummaryOptions& options, NameStyle names) {
  const std::vector<KernelSummary> rows = summarize_kernels(trace, options);
  if (format == Format::json) return format::kernel_json(trace, rows);
  const format::KernelGrid kernels =
      format::kernel_grid(rows, format, names, options.by_launch_config);
  const std::string table = format::render_trace_grid(kernels.grid, format);
  return format == Format::csv
             ? table
             : table + format::trace_footer(
                           trace, format, format::names_note(kernels.shortened, kernels.numbered));
}

}  // namespace kerntime
