// SPDX-License-Identifier: Apache-2.0
// The per-scope table: CUPTI's view of each scope (kernels, their summed duration, the GPU span
// of one opening) beside the scope's cudaEvent time, which also counts the launch gap.
#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <kerntime/statistics.hpp>
#include <kerntime/trace_format.hpp>

#include "format/trace/summary_cells.hpp"
#include "format/trace/trace_text.hpp"
#include "io/json_text.hpp"

namespace kerntime {
namespace format {
namespace {

// The stats layer's median, so a span median reads like any other median kerntime prints.
std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, 0.5);
}

std::optional<double> event_median(const Report* events, const std::string& name) {
  if (events == nullptr) return std::nullopt;
  const Entry* entry = events->find(name);
  if (entry == nullptr || entry->statistics.count == 0) return std::nullopt;
  return entry->statistics.median;
}

Grid scope_grid(const std::vector<ScopeSummary>& rows, const Report* events, bool raw) {
  const std::string unit = raw ? " (ns)" : "";
  Grid grid;
  grid.columns = {{"Scope", false},       {"Instances"},       {"Kernels"},
                  {"Kernel Time" + unit}, {"Span Med" + unit}, {"Event Med" + unit},
                  {"Self Kernels"},       {"Self Time" + unit}};
  auto duration = [raw](std::optional<double> ns) -> std::string {
    if (!ns) return raw ? "" : "-";
    return duration_cell(*ns, raw);
  };
  for (const ScopeSummary& row : rows) {
    grid.rows.push_back({row.name, std::to_string(row.instances), std::to_string(row.kernels),
                         duration(static_cast<double>(row.kernel_time_ns)),
                         duration(median(row.instance_span_ns)),
                         duration(event_median(events, row.name)), std::to_string(row.self_kernels),
                         duration(static_cast<double>(row.self_kernel_time_ns))});
  }
  return grid;
}

nlohmann::ordered_json optional_number(std::optional<double> value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string scope_json(const Trace& trace, const std::vector<ScopeSummary>& rows,
                       const Report* events) {
  nlohmann::ordered_json out;
  out["scopes"] = nlohmann::ordered_json::array();
  for (const ScopeSummary& row : rows) {
    nlohmann::ordered_json streams = nlohmann::ordered_json::array();
    for (const StreamSpan& s : row.streams) {
      streams.push_back({{"device", s.device},
                         {"stream", s.stream},
                         {"kernels", s.kernels},
                         {"kernel_time_ns", s.kernel_time_ns},
                         {"span_ns", s.span_ns}});
    }
    out["scopes"].push_back({{"name", row.name},
                             {"instances", row.instances},
                             {"kernels", row.kernels},
                             {"kernel_time_ns", row.kernel_time_ns},
                             {"median_span_ns", optional_number(median(row.instance_span_ns))},
                             {"event_median_ns", optional_number(event_median(events, row.name))},
                             {"self_kernels", row.self_kernels},
                             {"self_kernel_time_ns", row.self_kernel_time_ns},
                             {"streams", std::move(streams)}});
  }
  add_trace_counts(out, trace);
  return io::dump_json(out, 2) + "\n";
}

}  // namespace
}  // namespace format

std::string render_scope_summary(const Trace& trace, Format format, const Report* events) {
  const std::vector<ScopeSummary> rows = summarize_scopes(trace);
  if (format == Format::json) return format::scope_json(trace, rows, events);
  const std::string table =
      format::render_trace_grid(format::scope_grid(rows, events, format == Format::csv), format);
  return format == Format::csv ? table : table + format::trace_footer(trace, format);
}

}  // namespace kerntime
