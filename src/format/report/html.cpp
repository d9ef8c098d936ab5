// SPDX-License-Identifier: Apache-2.0
// A report as one self-contained HTML page (issue 30's report page): every entry with its
// distribution drawn as a box plot beside the table's figures, how the benchmark engine measured
// each entry (rates against the peak among them), and, for a traced report, where the GPU time
// went (html_trace_sections.cpp). The bandwidth chart is here: it reads the engine's entries.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <kerntime/throughput.hpp>

#include "format/html_page.hpp"
#include "format/report/html_trace_sections.hpp"
#include "format/report/measurement_details.hpp"
#include "format/report/renderers.hpp"
#include "format/report/summary.hpp"
#include "format/text_grid.hpp"
#include "format/trace/summary_views.hpp"
#include "text/numbers.hpp"
#include "text/short_name.hpp"

namespace kerntime::format {
namespace {

// `full_names`: each row's whole name, shown on hover where the row shows a short form.
std::string table_of(const Grid& grid, const std::string& caption,
                     const std::vector<std::string>& extra_column = {},
                     const std::string& extra_title = {},
                     const std::vector<std::string>& full_names = {}) {
  std::string out = "<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>" +
                    markup_text(caption) + "</caption>\n<thead><tr>";
  for (std::size_t c = 0; c < grid.columns.size(); ++c) {
    out += "<th scope=\"col\">" + markup_text(grid.columns[c].title) + "</th>";
    if (c == 0 && !extra_column.empty()) out += "<th scope=\"col\">" + extra_title + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < grid.rows.size(); ++r) {
    out += "<tr>";
    for (std::size_t c = 0; c < grid.rows[r].size(); ++c) {
      const bool titled = c == 0 && r < full_names.size() && full_names[r] != grid.rows[r][c];
      out += c != 0   ? "<td class=\"num\">" + markup_text(grid.rows[r][c]) + "</td>"
             : titled ? "<th scope=\"row\" title=\"" + markup_text(full_names[r]) + "\">" +
                            markup_text(grid.rows[r][c]) + "</th>"
                      : "<th scope=\"row\">" + markup_text(grid.rows[r][c]) + "</th>";
      if (c == 0 && r < extra_column.size()) out += "<td>" + extra_column[r] + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>\n";
  return out;
}

// The distribution of one entry on its own scale: whiskers from the minimum to the 95th
// percentile, the box from the first to the third quartile, the median as a bar, the maximum as
// a dot; the figures on hover.
std::string box_plot(const Entry& entry) {
  const Statistics& s = entry.statistics;
  if (entry.samples.size() < 2 || !(s.max > s.min)) return "-";
  constexpr double kWidth = 220.0;
  constexpr double kPad = 6.0;
  const auto x = [&](double v) {
    return kPad + (v - s.min) / (s.max - s.min) * (kWidth - 2 * kPad);
  };
  const std::string unit = entry.unit;
  return fmt::format(
      "<svg class=\"dist\" role=\"img\" aria-label=\"{0}\" width=\"{1:.0f}\" height=\"20\" "
      "viewBox=\"0 0 {1:.0f} 20\" xmlns=\"http://www.w3.org/2000/svg\"><title>{0}</title>"
      "<line class=\"whisker\" x1=\"{2:.1f}\" y1=\"10\" x2=\"{3:.1f}\" y2=\"10\"/>"
      "<rect class=\"box\" x=\"{4:.1f}\" y=\"4\" width=\"{5:.1f}\" height=\"12\"/>"
      "<line class=\"median\" x1=\"{6:.1f}\" y1=\"2\" x2=\"{6:.1f}\" y2=\"18\"/>"
      "<circle class=\"mark\" cx=\"{7:.1f}\" cy=\"10\" r=\"2\"/></svg>",
      markup_text(fmt::format("min {}, quartiles {} and {}, median {}, 95th percentile {}, max {}, "
                              "{} samples",
                              text::format_amount(s.min, unit), text::format_amount(s.q1, unit),
                              text::format_amount(s.q3, unit), text::format_amount(s.median, unit),
                              text::format_amount(s.p95, unit), text::format_amount(s.max, unit),
                              entry.samples.size())),
      kWidth, x(s.min), x(s.p95), x(s.q1), std::max(1.0, x(s.q3) - x(s.q1)), x(s.median), x(s.max));
}

// Each entry's memory bandwidth as a share of its device's peak (engine entries that declared
// the bytes they move), on one 0-100 % axis: how close a kernel comes to the roofline.
std::string bandwidth_chart(const Report& report, NameStyle names) {
  struct Bar {
    std::size_t entry;
    double percent;
    double gb_per_s;
  };
  std::vector<Bar> bars;
  for (std::size_t i = 0; i < report.entries.size(); ++i) {
    const Entry& e = report.entries[i];
    if (!e.measurement || !e.measurement->throughput.peak_bandwidth_percent) continue;
    bars.push_back({i, *e.measurement->throughput.peak_bandwidth_percent,
                    e.measurement->throughput.gb_per_s.value_or(0.0)});
  }
  if (bars.empty()) return {};
  constexpr std::size_t kMostBars = 60;
  const std::size_t all = bars.size();
  if (bars.size() > kMostBars) {
    std::stable_sort(bars.begin(), bars.end(),
                     [](const Bar& a, const Bar& b) { return a.percent > b.percent; });
    bars.resize(kMostBars);
    std::stable_sort(bars.begin(), bars.end(),
                     [](const Bar& a, const Bar& b) { return a.entry < b.entry; });
  }
  const text::ShortNames short_names(
      bars.size(),
      [&](std::size_t i) -> std::string_view { return report.entries[bars[i].entry].name; },
      names == NameStyle::full ? kBarNameWidth * 4 : kBarNameWidth);
  constexpr double kRow = 20.0;
  constexpr double kName = 360.0;
  constexpr double kBar = 360.0;
  const double height = kRow * static_cast<double>(bars.size()) + 30.0;
  std::string out =
      svg_figure_start("bandwidth", kName + kBar + 150.0, height,
                       "Memory bandwidth of each entry as a share of the device's peak");
  for (int t = 0; t <= 100; t += 25) {
    const double x = kName + kBar * t / 100.0;
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" y1=\"14\" x2=\"{0:.1f}\" y2=\"{1:.1f}\"/>"
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"10\" text-anchor=\"middle\">{2} %</text>\n",
        x, height - 4.0, t);
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = 18.0 + kRow * static_cast<double>(i);
    const std::string& name = report.entries[b.entry].name;
    out += fmt::format(
        "<g><title>{}: {:.1f} GB/s, {:.1f} % of the peak</title><text class=\"name\" "
        "x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text><rect class=\"bar\" "
        "x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/><text x=\"{:.1f}\" "
        "y=\"{:.1f}\">{:.1f} %</text></g>\n",
        markup_text(name), b.gb_per_s, b.percent, kName - 6.0, y + 13.0,
        markup_text(std::string{short_names(i)}), kName, y + 3.0,
        std::max(1.0, kBar * std::min(b.percent, 100.0) / 100.0), kRow - 6.0,
        kName + kBar * std::min(b.percent, 100.0) / 100.0 + 6.0, y + 13.0, b.percent);
  }
  std::string peak;
  for (const DeviceInfo& d : report.environment.devices) {
    const double gb = peak_bandwidth_gb_per_s(d);
    if (gb > 0.0) {
      peak += fmt::format("{}device {} ({}): {:.0f} GB/s", peak.empty() ? "" : "; ", d.index,
                          d.name, gb);
    }
  }
  out += fmt::format(
      "</svg>\n<figcaption>{}The peak is NVBench's: 2 x memory clock x bus width: "
      "{}.</figcaption>\n"
      "</figure>\n",
      all > bars.size() ? fmt::format("The {} of {} entries with declared bytes nearest the peak. ",
                                      bars.size(), all)
                        : std::string{},
      markup_text(peak.empty() ? std::string{"unknown"} : peak));
  return out;
}

}  // namespace

std::string render_html(const Report& report, NameStyle names) {
  std::string out = html_page_start("kerntime report", "kerntime report");
  out += "<h1>kerntime report</h1>\n";
  const std::vector<std::string> environment = environment_lines(report.environment);
  if (!environment.empty()) {
    out += "<ul class=\"notes\">\n";
    for (const std::string& line : environment)
      out += "<li>" + markup_text(line) + "</li>\n";
    out += "</ul>\n";
  }
  if (!report.warnings.empty()) {
    out += "<h2>Warnings</h2>\n<ul class=\"notes\">\n";
    for (const std::string& warning : report.warnings)
      out += "<li><strong>Warning:</strong> " + markup_text(warning) + "</li>\n";
    out += "</ul>\n";
  }
  // A traced report (kerntime run's) is read for where the time went first; its entries, one
  // per kernel, follow.
  const std::optional<Trace> records =
      report.trace ? std::optional<Trace>(records_of(*report.trace)) : std::nullopt;
  if (report.trace) {
    const std::string kernels = kernel_breakdown(*report.trace, names);
    if (!kernels.empty()) out += "<h2>Where the GPU time went</h2>\n" + kernels;
    const std::string ranges = range_table(*report.trace);
    if (!ranges.empty()) out += "<h2>NVTX ranges</h2>\n" + ranges;
  }
  out += "<h2>Entries</h2>\n";
  if (report.entries.empty()) {
    out += "<p>No entries.</p>\n";
  } else {
    const Summary summary = summarize(report, names);
    std::vector<std::string> plots;
    std::vector<std::string> full_names;
    plots.reserve(report.entries.size());
    for (const Entry& entry : report.entries) {
      plots.push_back(box_plot(entry));
      full_names.push_back(entry.name);
    }
    out += table_of(summary.grid,
                    "Every entry; the distribution on its own scale, drawn from quantiles of all "
                    "its samples (the samples themselves are not in the page): whiskers from the "
                    "minimum to the 95th percentile, box from the first to the third quartile, "
                    "bar at the median, dot at the maximum",
                    plots, "Distribution", full_names);
    if (!summary.names_note.empty()) {
      out += "<p class=\"notes\">Note: " + markup_text(summary.names_note) + "</p>\n";
    }
  }
  if (const std::string bandwidth = bandwidth_chart(report, names); !bandwidth.empty()) {
    out += "<h2>Memory bandwidth against the peak</h2>\n" + bandwidth;
  }
  if (has_measurements(report)) {
    out += "<h2>How the benchmark engine measured each entry</h2>\n";
    out += table_of(measurement_grid(report, false),
                    "Mode, timer, samples, floor and fixed cost, SM clock, rates against the "
                    "device's peak where work is declared, stop reason");
  }
  if (report.trace) {
    const std::string memory = memory_table(*report.trace, *records);
    if (!memory.empty()) out += "<h2>Copies and memsets</h2>\n" + memory;
    const std::string api = api_table(*report.trace, *records);
    if (!api.empty()) out += "<h2>Host API calls</h2>\n" + api;
  }
  out += html_page_end();
  return out;
}

}  // namespace kerntime::format
