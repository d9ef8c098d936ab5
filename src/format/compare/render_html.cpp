// SPDX-License-Identifier: Apache-2.0
// A comparison as one self-contained HTML page (issue 30's first page): a forest plot of every
// paired entry's change and interval against its threshold band, worst first, then the verdict
// table with the reasons, the warnings and the notes. Inline CSS and SVG only: nothing is
// fetched, so the page opens from a CI artifact or file://, in the reader's light or dark
// setting, and prints. A verdict is told by a word and a marker shape, never by colour alone.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "format/compare/render_cells.hpp"
#include "format/compare/render_html_strips.hpp"
#include "format/compare/renderers.hpp"
#include "format/html_page.hpp"
#include "format/markup_text.hpp"
#include "format/name_column.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format {
namespace {

// Worst first: what fails or needs a look, then what improved, then what held.
int severity(Verdict verdict) {
  switch (verdict) {
    case Verdict::regressed:
      return 0;
    case Verdict::inconclusive:
      return 1;
    case Verdict::improved:
      return 2;
    case Verdict::same:
      return 3;
    default:
      return 4;
  }
}

// The plot's x axis, in relative change: the thresholds and the intervals, clamped so that one
// runaway entry does not squeeze the others into a pixel (it is drawn with an arrow at the edge).
struct Axis {
  double low = -0.1;
  double high = 0.1;
  double x0 = 0.0;
  double width = 1.0;
  double x(double change) const {
    const double clamped = std::min(std::max(change, low), high);
    return x0 + (clamped - low) / (high - low) * width;
  }
};

constexpr double kLowestChange = -0.5;
constexpr double kHighestChange = 1.0;

Axis axis_for(const std::vector<const EntryComparison*>& rows, double x0, double width) {
  Axis axis;
  for (const EntryComparison* e : rows) {
    axis.low = std::min(axis.low, -2.0 * e->threshold);
    axis.high = std::max(axis.high, 2.0 * e->threshold);
    if (e->ratio_ci) {
      axis.low = std::min(axis.low, e->ratio_ci->low - 1.0);
      axis.high = std::max(axis.high, e->ratio_ci->high - 1.0);
    } else if (e->ratio) {
      axis.low = std::min(axis.low, *e->ratio - 1.0);
      axis.high = std::max(axis.high, *e->ratio - 1.0);
    }
  }
  axis.low = std::max(axis.low, kLowestChange);
  axis.high = std::min(axis.high, kHighestChange);
  axis.x0 = x0;
  axis.width = width;
  return axis;
}

// A marker per verdict, so that the verdict reads without colour: triangle up (regressed),
// triangle down (improved), circle (same), diamond (inconclusive).
std::string marker(Verdict verdict, double x, double y) {
  switch (verdict) {
    case Verdict::regressed:
      return fmt::format("<path class=\"mark\" d=\"M{:.1f},{:.1f}l6,10h-12z\"/>", x, y - 6);
    case Verdict::improved:
      return fmt::format("<path class=\"mark\" d=\"M{:.1f},{:.1f}l6,-10h-12z\"/>", x, y + 6);
    case Verdict::same:
      return fmt::format("<circle class=\"mark\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\"/>", x, y);
    default:
      return fmt::format("<path class=\"mark\" d=\"M{:.1f},{:.1f}l6,6l-6,6l-6,-6z\"/>", x, y - 6);
  }
}

// Tick positions at a round step that gives about six ticks over the axis.
std::vector<double> ticks(const Axis& axis) {
  const double span = axis.high - axis.low;
  double step = 0.01;
  for (double s : {0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5}) {
    step = s;
    if (span / s <= 8.0) break;
  }
  std::vector<double> out;
  for (double t = std::ceil(axis.low / step) * step; t <= axis.high + 1e-12; t += step) {
    out.push_back(std::abs(t) < 1e-12 ? 0.0 : t);
  }
  return out;
}

constexpr double kRowHeight = 24.0;
constexpr double kNameWidth = 300.0;
constexpr double kPlotWidth = 420.0;
constexpr double kWordWidth = 110.0;
constexpr double kTop = 30.0;

// The name column's width in the plot's units: the short forms' 40 characters fit kNameWidth; whole
// names (--names full) widen it to the longest one, at about 7 units a character.
double name_column_width(const NameColumn& names, const std::vector<const EntryComparison*>& rows,
                         const Comparison& comparison) {
  std::size_t longest = 0;
  for (const EntryComparison* e : rows) {
    longest = std::max(
        longest, display_width(names(static_cast<std::size_t>(e - comparison.entries.data()))));
  }
  return std::max(kNameWidth, 7.0 * static_cast<double>(longest) + 10.0);
}

void write_forest_plot(const Comparison& comparison, const NameColumn& names,
                       std::vector<const EntryComparison*> rows, ChunkedText& out) {
  std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    if (severity(a->verdict) != severity(b->verdict)) {
      return severity(a->verdict) < severity(b->verdict);
    }
    return std::abs(a->ratio.value_or(1.0) - 1.0) > std::abs(b->ratio.value_or(1.0) - 1.0);
  });
  const double name_width = name_column_width(names, rows, comparison);
  const Axis axis = axis_for(rows, name_width + 10.0, kPlotWidth);
  const double height = kTop + kRowHeight * static_cast<double>(rows.size()) + 10.0;
  const double width = name_width + kPlotWidth + kWordWidth + 20.0;
  out += svg_figure_start("forest", width, height,
                          "Change of each entry (candidate over baseline) with its " +
                              markup_text(interval_title(comparison)) +
                              " interval and threshold band, worst first");
  for (const double t : ticks(axis)) {
    const double x = axis.x(t);
    out += fmt::format(
        "<line class=\"{}\" x1=\"{:.1f}\" y1=\"{:.0f}\" x2=\"{:.1f}\" y2=\"{:.0f}\"/>"
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n",
        t == 0.0 ? "zero" : "grid", x, kTop - 6.0, x, height - 6.0, x, kTop - 12.0,
        markup_text(format_change(1.0 + t)));
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const EntryComparison& e = *rows[i];
    const auto index = static_cast<std::size_t>(&e - comparison.entries.data());
    const double y = kTop + kRowHeight * (static_cast<double>(i) + 0.5);
    const std::string verdict{to_string(e.verdict)};
    out += fmt::format("<g class=\"entry {}\">", verdict);
    out += fmt::format("<title>{}: {}, {}; {}</title>", markup_text(e.name), verdict,
                       markup_text(e.ratio ? format_change(*e.ratio) : "-"), markup_text(e.reason));
    out += fmt::format(
        "<rect class=\"band\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>",
        axis.x(-e.threshold), y - kRowHeight / 2.0 + 2.0,
        axis.x(e.threshold) - axis.x(-e.threshold), kRowHeight - 4.0);
    out +=
        fmt::format("<text class=\"name\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>",
                    name_width, y + 4.0, markup_text(names(index)));
    if (e.ratio_ci) {
      const double low = e.ratio_ci->low - 1.0;
      const double high = e.ratio_ci->high - 1.0;
      out += fmt::format(
          "<line class=\"interval\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>",
          axis.x(low), y, axis.x(high), y);
      if (low < axis.low) {
        out += fmt::format("<path class=\"clip\" d=\"M{:.1f},{:.1f}l8,-4v8z\"/>", axis.x(low), y);
      }
      if (high > axis.high) {
        out += fmt::format("<path class=\"clip\" d=\"M{:.1f},{:.1f}l-8,-4v8z\"/>", axis.x(high), y);
      }
    }
    if (e.ratio) out += marker(e.verdict, axis.x(*e.ratio - 1.0), y);
    out += fmt::format("<text class=\"word\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text></g>\n",
                       name_width + kPlotWidth + 24.0, y + 4.0, verdict);
  }
  out += fmt::format(
      "</svg>\n<figcaption>Each row: the change of the median (marker), its {} interval "
      "(line) and the entry's threshold band (shaded). Marker and word give the verdict: "
      "&#9650; regressed, &#9660; improved, &#9679; same, &#9670; inconclusive. Changes "
      "beyond {} or {} end in an arrow at the edge.</figcaption>\n</figure>\n",
      markup_text(interval_title(comparison)), markup_text(format_change(1.0 + kLowestChange)),
      markup_text(format_change(1.0 + kHighestChange)));
}

void write_table(const Comparison& comparison, const NameColumn& names, ChunkedText& out) {
  out +=
      "<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>Every entry, in the baseline's "
      "order, then the added ones</caption>\n"
      "<thead><tr>";
  const std::string interval = markup_text(interval_title(comparison));
  for (const std::string& title :
       {std::string{"Entry"}, std::string{"Verdict"}, std::string{"Change"}, interval,
        std::string{"p"}, std::string{"Threshold"}, std::string{"Baseline"},
        std::string{"Candidate"}, std::string{"Runs"}, std::string{"Reason"}}) {
    out += "<th scope=\"col\">" + title + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < comparison.entries.size(); ++i) {
    const EntryComparison& e = comparison.entries[i];
    const EntryCells c = cells_of(e);
    out += fmt::format(
        "<tr class=\"{}\"><th scope=\"row\" title=\"{}\">{}</th><td>{}</td><td class=\"num\">{}"
        "</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
        "</tr>\n",
        c.verdict, markup_text(e.name), markup_text(names(i)), markup_text(c.verdict),
        markup_text(c.change), markup_text(c.interval), markup_text(c.p), markup_text(c.threshold),
        markup_text(c.baseline), markup_text(c.candidate), markup_text(c.runs),
        markup_text(c.reason));
  }
  out += "</tbody>\n</table></div>\n";
}

}  // namespace

void write_comparison_html(const Comparison& comparison, NameStyle names, ChunkedText& out,
                           const Report* baseline, const Report* candidate) {
  const std::string result = outcome(comparison);
  out +=
      html_page_start(fmt::format("kerntime compare: {} against {}: {}",
                                  comparison.candidate_source, comparison.baseline_source, result),
                      "kerntime compare");
  out += fmt::format("<h1>kerntime compare: <span class=\"outcome-{}\">{}</span></h1>\n",
                     markup_text(result), markup_text(result));
  out +=
      fmt::format("<p>{}. Baseline {}, candidate {}; {}.</p>\n",
                  markup_text(summary_counts(comparison)), markup_text(comparison.baseline_source),
                  markup_text(comparison.candidate_source), markup_text(settings_line(comparison)));
  if (!comparison.warnings.empty() || !comparison.notes.empty()) {
    out += "<h2>Warnings and notes</h2>\n<ul class=\"notes\">\n";
    for (const std::string& warning : comparison.warnings) {
      out += "<li><strong>Warning:</strong> " + markup_text(warning) + "</li>\n";
    }
    for (const std::string& note : comparison.notes) {
      out += "<li>Note: " + markup_text(note) + "</li>\n";
    }
    out += "</ul>\n";
  }
  const NameColumn shown = entry_names(comparison, names);
  std::vector<const EntryComparison*> paired;
  for (const EntryComparison& entry : comparison.entries) {
    if (entry.baseline && entry.candidate && entry.ratio) paired.push_back(&entry);
  }
  if (!paired.empty()) {
    out += "<h2>Changes</h2>\n";
    // The plot's name column holds about 40 characters: short forms that fit, whole on hover;
    // with --names full, whole names in a column as wide as the longest.
    write_forest_plot(
        comparison,
        names == NameStyle::full ? shown : entry_names(comparison, NameStyle::short_form, 40),
        paired, out);
  }
  if (baseline != nullptr && candidate != nullptr) {
    write_strip_plots(comparison, *baseline, *candidate, shown, out);
  }
  out += "<h2>Verdicts</h2>\n";
  if (comparison.entries.empty()) {
    out += "<p>No entries to compare.</p>\n";
  } else {
    write_table(comparison, shown, out);
  }
  const std::string note = names_note(shown.shortened(), shown.numbered());
  if (!note.empty()) out += "<p class=\"notes\">Note: " + markup_text(note) + "</p>\n";
  out += html_page_end();
}

}  // namespace kerntime::format
