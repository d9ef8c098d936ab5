// SPDX-License-Identifier: Apache-2.0
// The per-kernel table in the layout of `nsys stats --report cuda_gpu_kern_sum`, so users
// read it without a legend; durations carry their unit, except in CSV (plain ns).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <kerntime/trace_format.hpp>

#include "format/trace/counts_json.hpp"
#include "format/trace/trace_text.hpp"

namespace kerntime {
namespace {

using trace_format::Column;
using trace_format::dimensions;
using trace_format::Grid;

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
  auto duration = [raw](double ns) { return raw ? fmt::format("{}", ns) : format_duration(ns); };
  for (const KernelSummary& row : rows) {
    grid.rows.push_back(
        {raw ? fmt::format("{}", row.time_percent) : fmt::format("{:.1f}", row.time_percent),
         duration(static_cast<double>(row.total_ns)), std::to_string(row.instances),
         duration(row.average_ns), duration(row.median_ns),
         duration(static_cast<double>(row.min_ns)), duration(static_cast<double>(row.max_ns)),
         row.stddev_ns ? duration(*row.stddev_ns) : (raw ? "" : kNone),
         launch_config(row, row.grid), launch_config(row, row.block), row.name});
  }
  return grid;
}

std::string kernel_json(const Trace& trace, const std::vector<KernelSummary>& rows) {
  nlohmann::ordered_json out;
  out["kernels"] = nlohmann::ordered_json::array();
  for (const KernelSummary& row : rows) {
    nlohmann::ordered_json k = {{"name", row.name},
                                {"time_percent", row.time_percent},
                                {"total_ns", row.total_ns},
                                {"instances", row.instances},
                                {"average_ns", row.average_ns},
                                {"median_ns", row.median_ns},
                                {"min_ns", row.min_ns},
                                {"max_ns", row.max_ns}};
    k["stddev_ns"] = row.stddev_ns ? nlohmann::ordered_json(*row.stddev_ns) : nullptr;
    k["grid"] = row.mixed_launch_config
                    ? nlohmann::ordered_json(nullptr)
                    : nlohmann::ordered_json{row.grid.x, row.grid.y, row.grid.z};
    k["block"] = row.mixed_launch_config
                     ? nlohmann::ordered_json(nullptr)
                     : nlohmann::ordered_json{row.block.x, row.block.y, row.block.z};
    out["kernels"].push_back(std::move(k));
  }
  trace_format::add_counts(out, trace);
  return out.dump(2) + "\n";
}

}  // namespace

std::string render_kernel_summary(const Trace& trace, Format format,
                                  const KernelSummaryOptions& options) {
  const std::vector<KernelSummary> rows = summarize_kernels(trace, options);
  if (format == Format::json) return kernel_json(trace, rows);
  const std::string table =
      trace_format::render_grid(kernel_grid(rows, format == Format::csv), format);
  return format == Format::csv ? table : table + trace_format::trace_footer(trace, format);
}

}  // namespace kerntime
