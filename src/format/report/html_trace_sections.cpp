// SPDX-License-Identifier: Apache-2.0
// The sections of a traced report's HTML page: the kernels by total GPU time (the largest one bar
// each, the rest as one), the NVTX ranges with their total and self kernel time, the copies and
// memsets by kind, and the host API calls by function.
#include "format/report/html_trace_sections.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <kerntime/trace_summaries.hpp>

#include "format/html_page.hpp"
#include "format/trace/summary_views.hpp"
#include "text/numbers.hpp"
#include "text/short_name.hpp"

namespace kerntime::format {
namespace {

// API functions listed.
constexpr std::size_t kApiRows = 15;

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

}  // namespace

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
  std::string out = svg_figure_start("kernels", kName + kBar + 170.0, height,
                                     "GPU time by kernel, largest first");
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

}  // namespace kerntime::format
