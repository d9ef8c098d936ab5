// SPDX-License-Identifier: Apache-2.0
#include "bench/results_render.hpp"

#include <algorithm>
#include <optional>

#include <fmt/core.h>

#include <kerntime/report_json.hpp>

#include "bench/stopping.hpp"

namespace kerntime::bench {
namespace {

using Row = std::vector<std::string>;

const Row kHeader = {"Benchmark", "Samples", "Headline", "Source",  "Events", "CI",
                     "Noise",     "GB/s",    "% peak",   "TFLOP/s", "SM MHz", "Stop"};

std::string optional_number(const std::optional<double>& v, const char* pattern) {
  return v ? fmt::format(fmt::runtime(pattern), *v) : std::string{"-"};
}

std::string source_label(const Measurement& m) {
  if (m.headline_timer == "cupti-kernel") return "cupti";
  if (m.headline_timer == "cuda-event-corrected") return "events-floor";
  return "events";
}

Row row_of(const Measurement& m) {
  const Statistics& h = m.headline;
  std::optional<double> ci;
  if (h.count > 0) {
    std::vector<double> sorted = m.headline_ns;
    std::sort(sorted.begin(), sorted.end());
    ci = median_ci_half_width(sorted);
  }
  auto percent = [](const std::optional<double>& share) {
    return share ? fmt::format("{:.2f}%", 100.0 * *share) : std::string{"-"};
  };
  std::string samples = std::to_string(h.count);
  if (m.throttled_samples + m.invalid_samples > 0) {
    samples += fmt::format(" (-{})", m.throttled_samples + m.invalid_samples);
  }
  return {m.name,
          samples,
          h.count > 0 ? format_duration(h.median) : "-",
          source_label(m),
          m.events.count > 0 ? format_duration(m.events.median) : "-",
          ci ? "+-" + percent(ci) : "-",
          percent(h.relative_noise),
          optional_number(m.throughput.gb_per_s, "{:.1f}"),
          optional_number(m.throughput.peak_bandwidth_percent, "{:.1f}%"),
          optional_number(m.throughput.tflop_per_s, "{:.3f}"),
          optional_number(m.median_sm_clock_mhz, "{:.0f}"),
          std::string{to_string(m.stop_reason)}};
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string{"\"\""} : std::string(1, c);
  return quoted + "\"";
}

std::string csv(const std::vector<Measurement>& ms) {
  std::string out =
      "name,mode,device,samples,throttled,invalid,headline_median_ns,headline_timer,"
      "events_median_ns,cupti_median_ns,relative_noise,gb_per_s,peak_percent,tflop_per_s,"
      "sm_clock_mhz,batch,stop_reason,wall_time_s,host_overhead_ns\n";
  auto num = [](const std::optional<double>& v) {
    return v ? fmt::format("{}", *v) : std::string{};
  };
  for (const Measurement& m : ms) {
    const auto median = [](const Statistics& s) {
      return s.count > 0 ? std::optional<double>{s.median} : std::nullopt;
    };
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_cell(m.name),
        to_string(m.mode), m.device, m.headline.count, m.throttled_samples, m.invalid_samples,
        num(median(m.headline)), m.headline_timer, num(median(m.events)),
        m.cupti ? num(median(*m.cupti)) : std::string{}, num(m.headline.relative_noise),
        num(m.throughput.gb_per_s), num(m.throughput.peak_bandwidth_percent),
        num(m.throughput.tflop_per_s), num(m.median_sm_clock_mhz), m.batch_size,
        to_string(m.stop_reason), m.wall_time_s, m.host_overhead_ns);
  }
  return out;
}

std::string grid(const std::vector<Row>& rows, bool markdown) {
  std::vector<std::size_t> width(kHeader.size(), 0);
  for (const Row& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c)
      width[c] = std::max(width[c], r[c].size());
  }
  std::string out;
  auto line = [&](const Row& r) {
    for (std::size_t c = 0; c < r.size(); ++c) {
      const bool left = c == 0 || c == 3 || c + 1 == r.size();
      const std::string cell =
          left ? fmt::format("{:<{}}", r[c], width[c]) : fmt::format("{:>{}}", r[c], width[c]);
      out += markdown ? "| " + cell + " " : (c == 0 ? cell : "  " + cell);
    }
    out += markdown ? "|\n" : "\n";
  };
  line(rows[0]);
  if (markdown) {
    Row rule;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const bool left = c == 0 || c == 3 || c + 1 == width.size();
      rule.push_back(left ? std::string(width[c], '-') : std::string(width[c] - 1, '-') + ":");
    }
    line(rule);
  } else {
    std::size_t total = 0;
    for (std::size_t w : width)
      total += w + 2;
    out += std::string(total - 2, '-') + "\n";
  }
  for (std::size_t i = 1; i < rows.size(); ++i)
    line(rows[i]);
  return out;
}

}  // namespace

std::string render_results(const std::vector<Measurement>& ms, const Report& report,
                           Format format) {
  if (format == Format::json) return to_json(report);
  if (format == Format::csv) return csv(ms);
  std::vector<Row> rows{kHeader};
  for (const Measurement& m : ms)
    rows.push_back(row_of(m));
  const bool markdown = format == Format::markdown;
  std::string out = grid(rows, markdown);
  if (!report.warnings.empty()) {
    out += markdown ? "\nWarnings:\n\n" : "\nwarnings:\n";
    for (const std::string& w : report.warnings)
      out += (markdown ? "- " : "  ") + w + "\n";
  }
  return out;
}

}  // namespace kerntime::bench
