// SPDX-License-Identifier: Apache-2.0
#include "format/compare/render_html_strips.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "format/html_axis.hpp"
#include "format/markup_text.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

constexpr double kWidth = 760.0;
constexpr double kLeft = 90.0;
constexpr double kRight = 20.0;
constexpr double kRowHeight = 34.0;

// Sorted samples thinned to at most kMaxDotsPerSide evenly spaced order statistics.
std::vector<double> dots_of(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  if (samples.size() <= kMaxDotsPerSide) return samples;
  std::vector<double> out;
  out.reserve(kMaxDotsPerSide);
  for (std::size_t i = 0; i < kMaxDotsPerSide; ++i) {
    const double at = static_cast<double>(i) / static_cast<double>(kMaxDotsPerSide - 1) *
                      static_cast<double>(samples.size() - 1);
    out.push_back(samples[static_cast<std::size_t>(std::lround(at))]);
  }
  return out;
}

std::vector<double> run_medians(const Entry& entry) {
  std::vector<double> out;
  for (const std::vector<double>& run : entry.runs())
    out.push_back(median(run));
  return out;
}

// A deterministic vertical spread of the dots, so that equal values stay visible.
double jitter(std::size_t i) {
  return static_cast<double>((i * 7919) % 13) - 6.0;
}

void write_one(const EntryComparison& e, const Entry& a, const Entry& b, const std::string& name,
               ChunkedText& out) {
  const std::vector<double> dots_a = dots_of(a.samples);
  // The candidate in the baseline's unit when both are times (a report in us against one in ns),
  // as the comparison itself converts them.
  const double per_a = text::nanoseconds_per(a.unit);
  const double per_b = text::nanoseconds_per(b.unit);
  const double b_scale = per_a != 0.0 && per_b != 0.0 ? per_b / per_a : 1.0;
  std::vector<double> b_samples = b.samples;
  for (double& v : b_samples)
    v *= b_scale;
  const std::vector<double> dots_b = dots_of(std::move(b_samples));
  double low = std::min(dots_a.front(), dots_b.front());
  double high = std::max(dots_a.back(), dots_b.back());
  if (!(high > low)) {
    low *= 0.99;
    high = high * 1.01 + 1e-9;
  }
  const PlotAxis axis = make_plot_axis(low, high, a.unit, 5);
  const auto x = [&](double v) { return kLeft + axis.at(v) * (kWidth - kLeft - kRight); };
  const double height = 2.0 * kRowHeight + 24.0;
  out += fmt::format(
      "<figure class=\"strip\">\n<svg role=\"img\" aria-label=\"{0}: samples of both sides\" "
      "width=\"{1:.0f}\" height=\"{2:.0f}\" viewBox=\"0 0 {1:.0f} {2:.0f}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n",
      markup_text(e.name), kWidth, height);
  const struct {
    const char* side;
    const Entry* entry;
    const std::vector<double>* dots;
  } sides[] = {{"baseline", &a, &dots_a}, {"candidate", &b, &dots_b}};
  for (int s = 0; s < 2; ++s) {
    const double y = 12.0 + kRowHeight * (s + 0.5);
    out += fmt::format("<g class=\"{}\"><text class=\"side\" x=\"4\" y=\"{:.1f}\">{}</text>",
                       sides[s].side, y + 4.0, sides[s].side);
    // Every dot a zero-length stroke with round caps in one path: a quarter of the bytes of a
    // circle each, so that a page of 100 strip plots stays light.
    const std::vector<double>& dots = *sides[s].dots;
    std::string path;
    for (std::size_t i = 0; i < dots.size(); ++i)
      path += fmt::format("M{:.1f} {:.1f}h0", x(dots[i]), y + jitter(i));
    out += "<path class=\"samples\" d=\"" + path + "\"/>";
    for (const double unscaled : run_medians(*sides[s].entry)) {
      const double m = s == 1 ? unscaled * b_scale : unscaled;
      out += fmt::format(
          "<line class=\"run\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" "
          "y2=\"{2:.1f}\"><title>a run's median: {3}</title></line>",
          x(m), y - 12.0, y + 12.0, markup_text(text::format_amount(m, a.unit)));
    }
    out += "</g>\n";
  }
  const double axis_y = height - 6.0;
  for (const double t : axis.ticks) {
    out += fmt::format(
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}"
        "</text>",
        x(t), axis_y, markup_text(axis.label(t)));
  }
  std::string shown;
  for (int s = 0; s < 2; ++s) {
    const std::size_t n = sides[s].entry->samples.size();
    shown += fmt::format(
        "{}{}: {} sample{}{}, {} run{}", s == 0 ? "" : "; ", sides[s].side, n, n == 1 ? "" : "s",
        n > kMaxDotsPerSide ? fmt::format(" drawn as {} evenly spaced quantiles", kMaxDotsPerSide)
                            : std::string{},
        sides[s].entry->run_count(), sides[s].entry->run_count() == 1 ? "" : "s");
  }
  out += fmt::format(
      "</svg>\n<figcaption><strong>{}</strong> ({}, {}): dots are samples, ticks are each run's "
      "median. {}.</figcaption>\n</figure>\n",
      markup_text(name), to_string(e.verdict),
      markup_text(e.ratio ? text::format_change(*e.ratio) : std::string{"-"}), markup_text(shown));
}

}  // namespace

void write_strip_plots(const Comparison& comparison, const Report& baseline,
                       const Report& candidate, const NameColumn& names, ChunkedText& out) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < comparison.entries.size(); ++i) {
    const EntryComparison& e = comparison.entries[i];
    if (e.verdict != Verdict::regressed && e.verdict != Verdict::inconclusive) continue;
    const Entry* a = baseline.find(e.name);
    const Entry* b = candidate.find(e.name);
    if (a == nullptr || b == nullptr || a->samples.empty() || b->samples.empty()) continue;
    // One figure a side (NVBench summaries, aggregates only) has no spread to show.
    if (a->samples.size() < 2 && b->samples.size() < 2) continue;
    chosen.push_back(i);
  }
  if (chosen.empty()) return;
  // Worst first: the regressions, then the largest changes.
  std::stable_sort(chosen.begin(), chosen.end(), [&comparison](std::size_t x, std::size_t y) {
    const EntryComparison& a = comparison.entries[x];
    const EntryComparison& b = comparison.entries[y];
    if ((a.verdict == Verdict::regressed) != (b.verdict == Verdict::regressed)) {
      return a.verdict == Verdict::regressed;
    }
    return std::abs(a.ratio.value_or(1.0) - 1.0) > std::abs(b.ratio.value_or(1.0) - 1.0);
  });
  out += "<h2>Samples of the entries that need a look</h2>\n";
  if (chosen.size() > kMaxStripPlots) {
    out += fmt::format(
        "<p>The {} of {} regressed or inconclusive entries with the largest "
        "changes; the table below has all of them.</p>\n",
        kMaxStripPlots, chosen.size());
    chosen.resize(kMaxStripPlots);
  }
  for (const std::size_t i : chosen) {
    const EntryComparison& e = comparison.entries[i];
    write_one(e, *baseline.find(e.name), *candidate.find(e.name), names(i), out);
  }
}

}  // namespace kerntime::format
