// SPDX-License-Identifier: Apache-2.0
#include "format/bench/results_render.hpp"

#include <optional>

#include <fmt/core.h>

#include <kerntime/report_json.hpp>

#include "format/counter_columns.hpp"
#include "format/text_grid.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

using Row = std::vector<std::string>;

const Row kHeader = {"Benchmark", "Samples", "Headline", "Source",  "Events", "CI",
                     "Noise",     "GB/s",    "% peak",   "TFLOP/s", "SM MHz", "Stop"};

std::string optional_number(const std::optional<double>& v, int decimals) {
  return v ? text::format_fixed(*v, decimals) : std::string{"-"};
}

std::string source_label(const Measurement& m) {
  if (m.headline_timer == "cupti-kernel") return "cupti";
  if (m.headline_timer == "cuda-event-corrected") return "events-floor";
  return "events";
}

Row row_of(const Measurement& m) {
  const Statistics& h = m.headline;
  const std::optional<double>& ci = m.median_ci_half_width;
  auto percent = [](const std::optional<double>& share) {
    return share ? text::format_percent_value(100.0 * *share, 2) : std::string{"-"};
  };
  std::string samples = std::to_string(h.count);
  if (m.info.throttled_samples + m.info.invalid_samples > 0) {
    samples += fmt::format(" (-{})", m.info.throttled_samples + m.info.invalid_samples);
  }
  return {m.name,
          samples,
          h.count > 0 ? format_duration(h.median) : "-",
          source_label(m),
          m.events.count > 0 ? format_duration(m.events.median) : "-",
          ci ? "+-" + percent(ci) : "-",
          percent(h.relative_noise),
          optional_number(m.info.throughput.gb_per_s, 1),
          m.info.throughput.peak_bandwidth_percent
              ? text::format_percent_value(*m.info.throughput.peak_bandwidth_percent, 1)
              : "-",
          optional_number(m.info.throughput.tflop_per_s, 3),
          optional_number(m.info.median_sm_clock_mhz, 0),
          m.info.stop_reason};
}

// The columns beyond the fixed ones (counter_columns.hpp).
CounterColumns extra_columns(const std::vector<Measurement>& ms) {
  CounterColumns extra;
  for (const Measurement& m : ms)
    extra.add(m.info.work, m.info.counters);
  return extra;
}

std::string csv(const std::vector<Measurement>& ms) {
  const CounterColumns extra = extra_columns(ms);
  std::string out =
      "name,mode,device,samples,throttled,invalid,headline_median_ns,headline_timer,"
      "events_median_ns,cupti_median_ns,relative_noise,gb_per_s,peak_percent,tflop_per_s,"
      "sm_clock_mhz,batch,stop_reason,wall_time_s,host_overhead_ns";
  if (extra.items) out += ",items_per_s";
  for (const std::string& name : extra.names)
    out += "," + csv_field(name);
  out += "\n";
  auto num = [](const std::optional<double>& v) {
    return v ? text::format_exact(*v) : std::string{};
  };
  for (const Measurement& m : ms) {
    const auto median = [](const Statistics& s) {
      return s.count > 0 ? std::optional<double>{s.median} : std::nullopt;
    };
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(m.name),
        m.info.mode, m.device, m.headline.count, m.info.throttled_samples, m.info.invalid_samples,
        num(median(m.headline)), m.headline_timer, num(median(m.events)),
        m.cupti ? num(median(*m.cupti)) : std::string{}, num(m.headline.relative_noise),
        num(m.info.throughput.gb_per_s), num(m.info.throughput.peak_bandwidth_percent),
        num(m.info.throughput.tflop_per_s), num(m.info.median_sm_clock_mhz), m.info.batch_size,
        m.info.stop_reason, m.info.wall_time_s, m.info.host_overhead_ns);
    out.pop_back();  // the row's line break, after the extra columns
    if (extra.items) out += "," + num(m.info.throughput.elements_per_s);
    for (const std::string& name : extra.names)
      out += "," + num(shown_counter(m.info.counters, name, m.headline));
    out += "\n";
  }
  return out;
}

// Names, the source and the stop reason are text (left-aligned); the rest are numbers. Items/s
// and the counters go before the stop reason, beside the other rates.
Grid grid_of(const std::vector<Measurement>& ms, bool markdown) {
  const CounterColumns extra = extra_columns(ms);
  Grid grid;
  auto header = [markdown](const std::string& name) {
    return markdown ? markdown_escape(name) : printable(name);
  };
  for (std::size_t c = 0; c + 1 < kHeader.size(); ++c) {
    const bool text = c == 0 || c == 3;
    grid.columns.push_back({kHeader[c], !text});
  }
  if (extra.items) grid.columns.push_back({"Items/s", true});
  for (const std::string& name : extra.names)
    grid.columns.push_back({header(name), true});
  grid.columns.push_back({kHeader.back(), false});
  for (const Measurement& m : ms) {
    Row row = row_of(m);
    row[0] = markdown ? markdown_escape(row[0]) : printable(row[0]);
    std::string stop = std::move(row.back());
    row.pop_back();
    if (extra.items) row.push_back(si_or_dash(m.info.throughput.elements_per_s));
    for (const std::string& name : extra.names)
      row.push_back(si_or_dash(shown_counter(m.info.counters, name, m.headline)));
    row.push_back(std::move(stop));
    grid.rows.push_back(std::move(row));
  }
  return grid;
}

}  // namespace

std::string render_results(const std::vector<Measurement>& ms, const Report& report,
                           Format format) {
  if (format == Format::json) return to_json(report);
  if (format == Format::csv) return csv(ms);
  const bool markdown = format == Format::markdown;
  const Grid grid = grid_of(ms, markdown);
  std::string out = markdown ? grid_markdown(grid) : grid_text(grid);
  if (!report.warnings.empty()) {
    out += markdown ? "\nWarnings:\n\n" : "\nwarnings:\n";
    for (const std::string& w : report.warnings)
      out += (markdown ? "- " + markdown_escape(w) : "  " + printable(w)) + "\n";
  }
  return out;
}

}  // namespace kerntime::format

namespace kerntime {

std::string render(const std::vector<Measurement>& measurements, const Report& report,
                   Format format) {
  return format::render_results(measurements, report, format);
}

}  // namespace kerntime
