// SPDX-License-Identifier: Apache-2.0
// A report as one self-contained HTML page (issue 30's report page): every entry with its
// distribution drawn as a box plot beside the table's figures, how the benchmark engine measured
// each entry (rates against the peak among them), and, for a traced report, where the GPU time
// went: the kernels by total time, largest first with the rest grouped, and the NVTX ranges.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <kerntime/throughput.hpp>
#include <kerntime/trace_summaries.hpp>

#include "format/html_page.hpp"
#include "format/report/measurement_details.hpp"
#include "format/report/renderers.hpp"
#include "format/report/summary.hpp"
#include "format/text_grid.hpp"
#include "format/trace/summary_views.hpp"
#include "text/numbers.hpp"
#include "text/short_name.hpp"

namespace kerntime::format {
namespace {

// The kernels drawn one bar each; the rest share one bar.
constexpr std::size_t kKernelBars = 15;
// Characters of a kernel's name beside its bar, and API functions listed.
constexpr std::size_t kBarNameWidth = 48;
constexpr std::size_t kApiRows = 15;

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

std::string kernel_breakdown(const TraceSection& trace, NameStyle names) {
  const std::vector<KernelSummary>& kernels = trace.kernel_summary;  // largest total first
  if (kernels.empty()) return {};
  std::uint64_t total = 0;
  for (const KernelSummary& k : kernels)
    total += k.total_ns;
  struct Bar {
    std::string name;
    std::string full;
    std::uint64_t ns;
    std::size_t instances;
  };
  std::vector<Bar> bars;
  std::uint64_t rest = 0;
  std::size_t rest_kernels = 0;
  std::size_t rest_instances = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (i < kKernelBars) {
      bars.push_back({kernels[i].name, kernels[i].name, kernels[i].total_ns, kernels[i].instances});
    } else {
      rest += kernels[i].total_ns;
      ++rest_kernels;
      rest_instances += kernels[i].instances;
    }
  }
  if (rest_kernels > 0) {
    bars.push_back({fmt::format("the other {} kernels", rest_kernels), "", rest, rest_instances});
  }
  constexpr double kRow = 22.0;
  constexpr double kName = 360.0;
  constexpr double kBar = 300.0;
  const double height = kRow * static_cast<double>(bars.size()) + 8.0;
  std::uint64_t largest = 1;  // the rest's bar may be the longest
  for (const Bar& b : bars)
    largest = std::max(largest, b.ns);
  // Short forms told apart by number, as the entries' table numbers them; whole on hover.
  const std::size_t width = names == NameStyle::full ? kBarNameWidth * 4 : kBarNameWidth;
  const std::size_t named = std::min(kernels.size(), kKernelBars);
  const text::ShortNames short_names(
      kernels.size(), [&kernels](std::size_t i) -> std::string_view { return kernels[i].name; },
      width);
  std::string out = fmt::format(
      "<figure>\n<svg class=\"kernels\" role=\"img\" aria-labelledby=\"kernels-title\" "
      "width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n<title id=\"kernels-title\">GPU time by kernel, "
      "largest first</title>\n",
      kName + kBar + 170.0, height);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = 4.0 + kRow * static_cast<double>(i);
    const double share = total == 0 ? 0.0 : 100.0 * static_cast<double>(b.ns) / total;
    const std::string shown = i < named ? std::string{short_names(i)} : b.name;
    out += fmt::format(
        "<g><title>{}: {} in {} instances, {:.1f} % of the kernels' GPU time</title>"
        "<text class=\"name\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>"
        "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\">{} ({:.1f} %)</text></g>\n",
        markup_text(b.full.empty() ? b.name : b.full),
        markup_text(text::format_amount(static_cast<double>(b.ns), "ns")), b.instances, share,
        kName - 6.0, y + 14.0, markup_text(shown), kName, y + 3.0,
        std::max(1.0, kBar * static_cast<double>(b.ns) / static_cast<double>(largest)), kRow - 6.0,
        kName + kBar + 6.0, y + 14.0,
        markup_text(text::format_amount(static_cast<double>(b.ns), "ns")), share);
  }
  out += fmt::format(
      "</svg>\n<figcaption>{} kernels, {} of GPU time in all; the {} largest by total time, the "
      "rest as one bar.</figcaption>\n</figure>\n",
      kernels.size(), markup_text(text::format_amount(static_cast<double>(total), "ns")),
      std::min(kernels.size(), kKernelBars));
  return out;
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
  std::string out = fmt::format(
      "<figure>\n<svg class=\"bandwidth\" role=\"img\" aria-labelledby=\"bandwidth-title\" "
      "width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n<title id=\"bandwidth-title\">Memory bandwidth of "
      "each entry as a share of the device's peak</title>\n",
      kName + kBar + 150.0, height);
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

std::string ns_text(double ns) {
  return markup_text(text::format_amount(ns, "ns"));
}

// "8.389 MB": SI prefixes as nsys's size summary uses them (MB is 10^6 bytes).
std::string bytes_text(double bytes) {
  std::string number = text::format_si(bytes);
  if (!number.empty() && std::isalpha(static_cast<unsigned char>(number.back()))) {
    number.insert(number.size() - 1, " ");
  } else {
    number += " ";
  }
  return number + "B";
}

std::string notes_of(const std::vector<std::string>& notes) {
  std::string out;
  for (const std::string& note : notes)
    out += "<p class=\"notes\">Note: " + markup_text(note) + ".</p>\n";
  return out;
}

// Copies and memsets by kind (nsys's cuda_gpu_mem_time_sum and _size_sum in one table).
std::string memory_table(const TraceSection& trace, const Trace& records) {
  const std::vector<MemoryOperationSummary> rows = summarize_memory_operations(records);
  if (rows.empty()) return {};
  std::string out =
      "<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>Copies and memsets by kind, largest "
      "GPU time first: their GPU time and "
      "sizes</caption>\n<thead><tr><th scope=\"col\">Operation</th><th scope=\"col\">Count</th>"
      "<th scope=\"col\">GPU time</th><th scope=\"col\">Share</th><th scope=\"col\">Median "
      "time</th><th scope=\"col\">Bytes</th><th scope=\"col\">Median size</th></tr></thead>\n"
      "<tbody>\n";
  for (const MemoryOperationSummary& r : rows) {
    out += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{:.1f} %</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        markup_text(r.operation), r.duration_ns.count,
        ns_text(static_cast<double>(r.duration_ns.total)), r.time_percent,
        ns_text(r.duration_ns.median), bytes_text(static_cast<double>(r.bytes.total)),
        bytes_text(r.bytes.median));
  }
  out += "</tbody>\n</table></div>\n";
  return out + notes_of(partial_lists(trace, TraceSummaryKind::memory_time));
}

// The host API functions by total time (nsys's cuda_api_sum), the largest kApiRows.
std::string api_table(const TraceSection& trace, const Trace& records) {
  std::vector<std::string> notes = partial_lists(trace, TraceSummaryKind::api_calls);
  const std::vector<ApiCallSummary> rows = summarize_api_calls(records);
  if (rows.empty()) {
    if (trace.counts.api_calls == 0) return {};
    return notes_of(notes);
  }
  std::string out = fmt::format(
      "<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>Host API calls by function, largest "
      "total time first{}</caption>\n"
      "<thead><tr><th scope=\"col\">Function</th><th scope=\"col\">Calls</th><th scope=\"col\">"
      "Total time</th><th scope=\"col\">Share</th><th scope=\"col\">Median</th>"
      "<th scope=\"col\">Max</th></tr></thead>\n<tbody>\n",
      rows.size() > kApiRows
          ? fmt::format(" (the {} largest of {} functions)", kApiRows, rows.size())
          : std::string{});
  for (std::size_t i = 0; i < rows.size() && i < kApiRows; ++i) {
    const ApiCallSummary& r = rows[i];
    out += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{:.1f} %</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "</tr>\n",
        markup_text(r.name), r.duration_ns.count, ns_text(static_cast<double>(r.duration_ns.total)),
        r.time_percent, ns_text(r.duration_ns.median),
        ns_text(static_cast<double>(r.duration_ns.max)));
  }
  out += "</tbody>\n</table></div>\n";
  return out + notes_of(notes);
}

std::string range_table(const TraceSection& trace) {
  if (trace.range_summary.empty()) return {};
  std::string out =
      "<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>NVTX ranges: host time of each "
      "range, and the GPU time of the kernels "
      "launched inside it (nested ranges included) and directly in it (self)</caption>\n<thead>"
      "<tr><th scope=\"col\">Range</th><th scope=\"col\">Instances</th><th scope=\"col\">Host "
      "time</th><th scope=\"col\">Median</th><th scope=\"col\">Kernels</th><th scope=\"col\">"
      "Kernel time</th><th scope=\"col\">Self kernels</th><th scope=\"col\">Self kernel "
      "time</th></tr></thead>\n<tbody>\n";
  for (const RangeSummary& r : trace.range_summary) {
    const std::string name = r.domain.empty() ? r.name : r.domain + ":" + r.name;
    out += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        markup_text(name), r.instances,
        markup_text(text::format_amount(static_cast<double>(r.total_ns), "ns")),
        markup_text(text::format_amount(r.median_ns, "ns")), r.kernels,
        markup_text(text::format_amount(static_cast<double>(r.kernel_time_ns), "ns")),
        r.self_kernels,
        markup_text(text::format_amount(static_cast<double>(r.self_kernel_time_ns), "ns")));
  }
  return out + "</tbody>\n</table></div>\n";
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
