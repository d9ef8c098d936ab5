// SPDX-License-Identifier: Apache-2.0
#include "format/report/measurement_details.hpp"

#include <optional>
#include <string>
#include <vector>

#include <kerntime/duration.hpp>

#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

std::string yes_no(bool value) {
  return value ? "yes" : "no";
}

std::string or_dash(const std::string& text) {
  return text.empty() ? "-" : text;
}

std::string rate(const std::optional<double>& value, int decimals) {
  return value ? text::format_fixed(*value, decimals) : std::string{"-"};
}

std::string share(const std::optional<double>& percent) {
  return percent ? text::format_percent_value(*percent, 1) : std::string{"-"};
}

// Shortest text that reads back as the same double, for CSV.
std::string number(double value) {
  return text::format_exact(value);
}

std::string optional_number(const std::optional<double>& value) {
  return value ? number(*value) : std::string{};
}

// The floor and the fixed cost only mean something in cold mode, where the events-only
// headline is corrected with them.
bool corrects_events(const MeasurementInfo& m) {
  return m.event_floor_ns > 0.0;
}

}  // namespace

bool has_measurements(const Report& report) {
  for (const Entry& entry : report.entries) {
    if (entry.measurement) return true;
  }
  return false;
}

CounterColumns measurement_counter_columns(const Report& report) {
  CounterColumns columns;
  for (const Entry& entry : report.entries) {
    if (entry.measurement) columns.add(entry.measurement->work, entry.measurement->counters);
  }
  return columns;
}

Grid measurement_grid(const Report& report, bool markdown) {
  Grid grid;
  grid.columns = {{"Name", false}, {"Mode", false},     {"Timer", false},
                  {"Invalid"},     {"Throttled"},       {"Warm-up"},
                  {"Batch"},       {"L2 flush", false}, {"Blocking", false},
                  {"Floor"},       {"Fixed cost"},      {"SM MHz"},
                  {"GB/s"},        {"% peak"},          {"TFLOP/s"}};
  // Items/s and the counters beside the other rates, before the stop reason.
  const CounterColumns extra = measurement_counter_columns(report);
  const auto text = [markdown](const std::string& value) {
    return markdown ? markdown_escape(value) : printable(value);
  };
  if (extra.items) grid.columns.push_back({"Items/s"});
  for (const std::string& name : extra.names)
    grid.columns.push_back({text(name)});
  grid.columns.push_back({"Stop", false});
  grid.columns.push_back({"Stop detail", false});
  for (const Entry& entry : report.entries) {
    if (!entry.measurement) continue;
    const MeasurementInfo& m = *entry.measurement;
    std::string fixed_cost = "-";
    if (m.kernel_fixed_cost_ns) {
      fixed_cost = format_duration(*m.kernel_fixed_cost_ns);
      if (!m.kernel_fixed_cost_source.empty())
        fixed_cost += " (" + m.kernel_fixed_cost_source + ")";
    } else if (corrects_events(m)) {
      fixed_cost = "unknown";
    }
    std::vector<std::string> row = {text(entry.name),
                                    text(or_dash(m.mode)),
                                    text(or_dash(entry.timer)),
                                    std::to_string(m.invalid_samples),
                                    std::to_string(m.throttled_samples),
                                    std::to_string(m.warmup_samples),
                                    std::to_string(m.batch_size),
                                    yes_no(m.l2_flushed),
                                    yes_no(m.blocking_kernel),
                                    corrects_events(m) ? format_duration(m.event_floor_ns) : "-",
                                    text(fixed_cost),
                                    rate(m.median_sm_clock_mhz, 0),
                                    rate(m.throughput.gb_per_s, 1),
                                    share(m.throughput.peak_bandwidth_percent),
                                    rate(m.throughput.tflop_per_s, 3)};
    if (extra.items) row.push_back(si_or_dash(m.throughput.elements_per_s));
    for (const std::string& name : extra.names)
      row.push_back(si_or_dash(shown_counter(m.counters, name, entry.statistics)));
    row.push_back(text(or_dash(m.stop_reason)));
    row.push_back(text(or_dash(m.stop_detail)));
    grid.rows.push_back(std::move(row));
  }
  return grid;
}

std::vector<std::string> measurement_csv_titles(const CounterColumns& extra) {
  std::vector<std::string> titles = {"mode",
                                     "stop_reason",
                                     "stop_detail",
                                     "warmup_samples",
                                     "invalid_samples",
                                     "throttled_samples",
                                     "batch_size",
                                     "l2_flushed",
                                     "blocking_kernel",
                                     "event_floor_ns",
                                     "kernel_fixed_cost_ns",
                                     "kernel_fixed_cost_source",
                                     "median_sm_clock_mhz",
                                     "work_bytes",
                                     "work_flops",
                                     "gb_per_s",
                                     "tflop_per_s",
                                     "peak_bandwidth_percent"};
  if (extra.items) {
    titles.push_back("work_elements");
    titles.push_back("items_per_s");
  }
  titles.insert(titles.end(), extra.names.begin(), extra.names.end());
  return titles;
}

std::vector<std::string> measurement_csv_cells(const Entry& entry, const CounterColumns& extra) {
  if (!entry.measurement) return std::vector<std::string>(measurement_csv_titles(extra).size());
  const MeasurementInfo& m = *entry.measurement;
  const auto declared = [](double value) { return value != 0.0 ? number(value) : std::string{}; };
  std::vector<std::string> cells = {m.mode,
                                    m.stop_reason,
                                    m.stop_detail,
                                    std::to_string(m.warmup_samples),
                                    std::to_string(m.invalid_samples),
                                    std::to_string(m.throttled_samples),
                                    std::to_string(m.batch_size),
                                    m.l2_flushed ? "true" : "false",
                                    m.blocking_kernel ? "true" : "false",
                                    number(m.event_floor_ns),
                                    optional_number(m.kernel_fixed_cost_ns),
                                    m.kernel_fixed_cost_source,
                                    optional_number(m.median_sm_clock_mhz),
                                    declared(m.work.bytes),
                                    declared(m.work.flops),
                                    optional_number(m.throughput.gb_per_s),
                                    optional_number(m.throughput.tflop_per_s),
                                    optional_number(m.throughput.peak_bandwidth_percent)};
  if (extra.items) {
    cells.push_back(declared(m.work.elements));
    cells.push_back(optional_number(m.throughput.elements_per_s));
  }
  for (const std::string& name : extra.names)
    cells.push_back(optional_number(shown_counter(m.counters, name, entry.statistics)));
  return cells;
}

}  // namespace kerntime::format
