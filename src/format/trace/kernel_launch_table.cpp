// SPDX-License-Identifier: Apache-2.0
// Each kernel's launch call, queue and execution, in the layout of `nsys stats --report
// cuda_kern_exec_sum`: PID, TID, DevId, Count, QCount, then average, median, minimum, maximum
// and standard deviation of the total (T), API (A), queue (Q) and kernel (K) times, API Name,
// Kernel Name.
#include <string_view>

#include <kerntime/trace_summaries.hpp>

#include "format/name_column.hpp"
#include "format/trace/summary_cells.hpp"
#include "format/trace/summary_views.hpp"
#include "format/trace/trace_text.hpp"

namespace kerntime::format {
namespace {

Grid launch_grid(const std::vector<KernelExecutionSummary>& rows, bool raw,
                 const NameColumn& kernel_names) {
  const std::string unit = raw ? " (ns)" : "";
  Grid grid;
  grid.columns = {{"PID"}, {"TID"}, {"DevId"}, {"Count"}, {"QCount"}};
  for (const char* phase : {"T", "A", "Q", "K"}) {
    for (const char* figure : {"Avg", "Med", "Min", "Max", "StdDev"}) {
      grid.columns.push_back({std::string{phase} + figure + unit});
    }
  }
  grid.columns.push_back({"API Name", false});
  grid.columns.push_back({"Kernel Name", false});
  for (const KernelExecutionSummary& row : rows) {
    std::vector<std::string> cells{std::to_string(row.process_id), std::to_string(row.thread_id),
                                   std::to_string(row.device), std::to_string(row.kernel_ns.count),
                                   std::to_string(row.queue_ns.count)};
    for (const ValueSummary* s : {&row.total_ns, &row.api_ns, &row.queue_ns, &row.kernel_ns}) {
      append_duration_cells(cells, *s, raw);
    }
    cells.push_back(row.api_name);
    cells.push_back(kernel_names(grid.rows.size()));
    grid.rows.push_back(std::move(cells));
  }
  return grid;
}

}  // namespace

std::string render_kernel_launch_summary(const SummaryInput& input, Format format) {
  const std::vector<KernelExecutionSummary> rows = summarize_kernel_executions(input.records);
  if (format == Format::json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const KernelExecutionSummary& row : rows) {
      out.push_back({{"process_id", row.process_id},
                     {"thread_id", row.thread_id},
                     {"device", row.device},
                     {"count", row.kernel_ns.count},
                     {"queue_count", row.queue_ns.count},
                     {"total", value_summary_json(row.total_ns, "ns", false)},
                     {"api", value_summary_json(row.api_ns, "ns", false)},
                     {"queue", value_summary_json(row.queue_ns, "ns", false)},
                     {"kernel", value_summary_json(row.kernel_ns, "ns", false)},
                     {"api_name", row.api_name},
                     {"kernel_name", row.kernel_name}});
    }
    return summary_json("kernel_launches", std::move(out), input);
  }
  const bool raw = format == Format::csv;
  const NameColumn kernel_names(
      raw ? NameStyle::full : input.names, rows.size(),
      [&rows](std::size_t i) { return std::string_view{rows[i].kernel_name}; });
  return render_trace_grid(launch_grid(rows, raw, kernel_names), format) +
         summary_footer(input, format, {},
                        names_note(kernel_names.shortened(), kernel_names.numbered()));
}

}  // namespace kerntime::format
