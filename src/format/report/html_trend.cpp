// SPDX-License-Identifier: Apache-2.0
// Reports in order (one per commit) as one HTML page (issue 30's trend page): per entry, its
// median at each point with the point's interval, the levels between steps and the steps
// themselves, found where a move beats both the threshold and the noise between processes
// (stats/change_points). The table lists every entry; charts are drawn, worst first, until the
// page's budget for them is spent, and the page says how many.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>

#include "format/html_axis.hpp"
#include "format/html_page.hpp"
#include "stats/change_points.hpp"
#include "text/numbers.hpp"
#include "text/short_name.hpp"

namespace kerntime::format {
namespace {

// Charts stop here, so that a history of 1,000 entries over hundreds of commits stays a page
// that opens at once; the table still lists every entry.
constexpr std::size_t kChartBudgetBytes = 3'000'000;
constexpr double kWidth = 760.0;
constexpr double kLeft = 100.0;
constexpr double kRight = 16.0;
constexpr double kTop = 26.0;
constexpr double kPlot = 150.0;
constexpr double kHeight = kTop + kPlot + 62.0;  // room for slanted labels

struct Point {
  std::size_t report = 0;  ///< index of the report (the x position)
  double median = 0.0;
  std::optional<Interval> interval;
  std::size_t runs = 1;
  std::size_t samples = 0;
  const Entry* entry = nullptr;  ///< in the report, for its runs and samples
  double scale = 1.0;            ///< from the entry's unit to the series'
};

struct Series {
  std::string name;
  std::string unit;
  std::vector<Point> points;
  stats::ChangePoints found;
  std::vector<std::string> notes;  // points left out, and why
  double moved = 0.0;              // |last / first - 1|, for the order of the charts
};

bool is_time(const std::string& unit) {
  return text::nanoseconds_per(unit) != 0.0;
}

std::vector<Series> series_of(const std::vector<Report>& reports,
                              const std::vector<std::string>& labels, double threshold) {
  std::vector<Series> all;
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (const Entry& entry : reports[r].entries) {
      auto [at, added] = index.emplace(entry.name, all.size());
      if (added) all.push_back({entry.name, entry.unit, {}, {}, {}, 0.0});
      Series& s = all[at->second];
      if (entry.samples.empty()) continue;
      double scale = 1.0;
      if (entry.unit != s.unit) {
        if (!is_time(entry.unit) || !is_time(s.unit)) {
          s.notes.push_back(
              fmt::format("{} left out: its unit is {}, not {}", labels[r], entry.unit, s.unit));
          continue;
        }
        scale = text::nanoseconds_per(entry.unit) / text::nanoseconds_per(s.unit);
      }
      Point p;
      p.report = r;
      p.median = entry.statistics.median * scale;
      if (entry.statistics.median_ci) {
        p.interval = Interval{entry.statistics.median_ci->low * scale,
                              entry.statistics.median_ci->high * scale};
      }
      p.runs = entry.run_count();
      p.samples = entry.samples.size();
      p.entry = &entry;
      p.scale = scale;
      s.points.push_back(p);
    }
  }
  stats::ChangePointOptions options;
  options.threshold = threshold;
  for (Series& s : all) {
    std::vector<stats::TrendPoint> points;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      const Point& p = s.points[i];
      stats::TrendPoint t{p.median, {}};
      t.repeats_previous = i > 0 && s.points[i - 1].entry->samples == p.entry->samples;
      if (p.runs > 1) {
        for (const std::vector<double>& run : p.entry->runs())
          t.run_medians.push_back(median(run) * p.scale);
      }
      points.push_back(std::move(t));
    }
    s.found = stats::find_change_points(points, options);
    if (!s.found.usable) s.notes.push_back("steps not searched: a median is 0 or negative");
    if (s.points.size() >= 2 && s.points.front().median > 0.0) {
      s.moved = std::fabs(s.points.back().median / s.points.front().median - 1.0);
    }
  }
  return all;
}

// Worse first: entries with steps (the largest step first), then by how far they moved.
std::vector<std::size_t> chart_order(const std::vector<Series>& all) {
  std::vector<std::size_t> order(all.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  const auto largest_step = [&all](std::size_t i) {
    double largest = 0.0;
    for (const stats::ChangePoint& c : all[i].found.steps)
      largest = std::max(largest, std::fabs(c.change));
    return largest;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double sa = largest_step(a);
    const double sb = largest_step(b);
    if ((sa > 0.0) != (sb > 0.0)) return sa > 0.0;
    if (sa != sb) return sa > sb;
    return all[a].moved > all[b].moved;
  });
  return order;
}

// Slower is worse for a time; for other units a step only has a direction.
const char* step_class(const Series& s, double change) {
  if (!is_time(s.unit)) return "inconclusive";
  return change > 0.0 ? "regressed" : "improved";
}

std::string step_word(const Series& s, double change) {
  const std::string size = text::format_change(1.0 + change);
  if (!is_time(s.unit)) return (change > 0.0 ? "\u25b2 up " : "\u25bc down ") + size;
  return (change > 0.0 ? "\u25b2 slower " : "\u25bc faster ") + size;
}

std::string steps_text(const Series& s, const std::vector<std::string>& labels) {
  if (s.found.steps.empty()) return "none";
  std::string out;
  for (const stats::ChangePoint& c : s.found.steps) {
    out += (out.empty() ? "" : "; ") + step_word(s, c.change) + " at " +
           labels[s.points[c.index].report];
  }
  return out;
}

std::string point_label(const std::string& label) {
  return text::fit_name(label, 14);  // whole UTF-8 characters
}

// The noise a series was judged against; 0 is not known (see stats::ChangePoints::noise).
std::string noise_text(const stats::ChangePoints& found) {
  if (!found.usable) return "-";
  return found.noise > 0.0 ? text::format_change_size(found.noise) : "unknown";
}

std::string chart(const Series& s, const std::string& shown, const std::vector<std::string>& labels,
                  std::size_t reports) {
  double low = s.points.front().median;
  double high = low;
  for (const Point& p : s.points) {
    low = std::min(low, p.interval ? p.interval->low : p.median);
    high = std::max(high, p.interval ? p.interval->high : p.median);
  }
  const PlotAxis axis = make_plot_axis(low, high, s.unit);
  const auto x = [&](std::size_t report) {
    const double span = kWidth - kLeft - kRight;
    return reports <= 1 ? kLeft + span / 2
                        : kLeft + span * static_cast<double>(report) / (reports - 1);
  };
  const auto y = [&](double v) { return kTop + kPlot * (1.0 - axis.at(v)); };
  std::string out = fmt::format(
      "<figure class=\"trend\">\n<svg role=\"img\" aria-label=\"{0}: the median at each of {1} "
      "reports; steps: {2}\" width=\"{3:.0f}\" height=\"{4:.0f}\" viewBox=\"0 0 {3:.0f} {4:.0f}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n",
      markup_text(s.name), s.points.size(), markup_text(steps_text(s, labels)), kWidth, kHeight);
  for (const double t : axis.ticks) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\"/>"
        "<text class=\"tick\" x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, y(t), kWidth - kRight, kLeft - 6.0, y(t) + 4.0, markup_text(axis.label(t)));
  }
  // Every point's label when they fit, else about twelve of them.
  const std::size_t every = std::max<std::size_t>(1, (reports + 11) / 12);
  for (std::size_t r = 0; r < reports; r += every) {
    out += fmt::format(
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"{1:.1f}\" text-anchor=\"end\" "
        "transform=\"rotate(-25 {0:.1f} {1:.1f})\">{2}</text>",
        x(r), kTop + kPlot + 16.0, markup_text(point_label(labels[r])));
  }
  out += "\n";
  // The levels between steps, then the steps.
  std::size_t begin = 0;
  for (std::size_t s_i = 0; s_i <= s.found.steps.size(); ++s_i) {
    const std::size_t end = s_i < s.found.steps.size() ? s.found.steps[s_i].index : s.points.size();
    double logs = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      logs += std::log(s.points[i].median);
    if (s.found.usable && end > begin) {
      const double level = std::exp(logs / static_cast<double>(end - begin));
      out += fmt::format(
          "<line class=\"level\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\">"
          "<title>level {}</title></line>",
          x(s.points[begin].report) - 4.0, y(level), x(s.points[end - 1].report) + 4.0, y(level),
          markup_text(text::format_amount(level, s.unit)));
    }
    begin = end;
  }
  for (const stats::ChangePoint& c : s.found.steps) {
    const double at = 0.5 * (x(s.points[c.index - 1].report) + x(s.points[c.index].report));
    const bool up = c.change > 0.0;
    // The word reads away from the nearer edge; the triangle says up or down without it.
    const bool right_half = at > kLeft + (kWidth - kLeft - kRight) / 2;
    std::string word = step_word(s, c.change);
    word = word.substr(word.find(' ') + 1) + " at " + labels[s.points[c.index].report];
    out += fmt::format(
        "<g class=\"step {0}\"><line class=\"interval\" x1=\"{1:.1f}\" y1=\"{2:.1f}\" "
        "x2=\"{1:.1f}\" y2=\"{3:.1f}\" stroke-dasharray=\"4 3\"/><path class=\"mark\" "
        "d=\"M{1:.1f},{4:.1f} l-5,{5} h10 z\"/><text class=\"word\" x=\"{6:.1f}\" y=\"{7:.1f}\" "
        "text-anchor=\"{8}\">{9}</text></g>\n",
        step_class(s, c.change), at, kTop, kTop + kPlot, up ? kTop - 12.0 : kTop - 4.0,
        up ? "8" : "-8", right_half ? at - 9.0 : at + 9.0, kTop - 5.0, right_half ? "end" : "start",
        markup_text(word));
  }
  // The medians, joined where neighbouring reports both have the entry.
  std::string line;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const bool joined = i > 0 && s.points[i].report == s.points[i - 1].report + 1;
    line += fmt::format("{}{:.1f},{:.1f}", joined ? " L" : (i == 0 ? "M" : " M"),
                        x(s.points[i].report), y(s.points[i].median));
  }
  out += "<path class=\"series\" d=\"" + line + "\"/>\n";
  for (const Point& p : s.points) {
    const std::string interval =
        p.interval
            ? fmt::format(", 95% interval {} to {}", text::format_amount(p.interval->low, s.unit),
                          text::format_amount(p.interval->high, s.unit))
            : std::string{};
    out += fmt::format("<g class=\"point\"><title>{}: median {}{}, {} sample{}, {} run{}</title>",
                       markup_text(labels[p.report]),
                       markup_text(text::format_amount(p.median, s.unit)), markup_text(interval),
                       p.samples, p.samples == 1 ? "" : "s", p.runs, p.runs == 1 ? "" : "s");
    if (p.interval) {
      out += fmt::format(
          "<line class=\"interval\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>",
          x(p.report), y(p.interval->high), y(p.interval->low));
    }
    out += fmt::format("<circle class=\"mark\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\"/></g>\n",
                       x(p.report), y(p.median));
  }
  out += fmt::format(
      "</svg>\n<figcaption><strong title=\"{}\">{}</strong>: median at each report (dots, with "
      "the 95% interval of the median), the level between steps (dashed), steps: {}. Noise "
      "between processes judged: {}.{}</figcaption>\n</figure>\n",
      markup_text(s.name), markup_text(shown), markup_text(steps_text(s, labels)),
      s.found.noise > 0.0 ? markup_text(noise_text(s.found)) + " of a point"
                          : std::string{"not known (the threshold alone decides)"},
      s.notes.empty() ? std::string{}
                      : " Note: " + markup_text(fmt::format("{}.", fmt::join(s.notes, "; "))));
  return out;
}

}  // namespace

std::string render_html_trend(const std::vector<Report>& reports,
                              const std::vector<std::string>& labels, NameStyle names,
                              double threshold) {
  if (reports.empty()) throw Error("the trend page needs at least one report");
  if (labels.size() != reports.size()) {
    throw Error(fmt::format("the trend page has {} reports but {} labels; give one label each",
                            reports.size(), labels.size()));
  }
  if (!(threshold >= 0.0) || !std::isfinite(threshold)) {
    throw Error("the trend page's threshold must be a finite fraction >= 0, such as 0.05");
  }
  const std::vector<Series> all = series_of(reports, labels, threshold);
  const text::ShortNames shown(
      all.size(), [&all](std::size_t i) -> std::string_view { return all[i].name; },
      names == NameStyle::full ? std::size_t{1} << 20 : text::kShortNameWidth);

  std::string out = html_page_start("kerntime trend", "kerntime report");
  std::size_t stepped = 0;
  for (const Series& s : all)
    stepped += s.found.steps.empty() ? 0 : 1;
  out += fmt::format(
      "<h1>kerntime trend: {} entr{} over {} reports</h1>\n<p>{} with a step: a move beyond "
      "{} and beyond {} standard errors of the noise between processes, which is estimated "
      "from each series (and from the runs inside its reports when wider).</p>\n",
      all.size(), all.size() == 1 ? "y" : "ies", reports.size(),
      stepped == 0 ? std::string{"No entry"}
                   : fmt::format("{} entr{}", stepped, stepped == 1 ? "y" : "ies"),
      text::format_change_size(threshold), 4);

  // A step between reports of different GPUs is the GPUs' difference, not a change of the code.
  const auto gpu_of = [](const Report& r) {
    return r.environment.devices.empty() ? std::string{"unknown"}
                                         : r.environment.devices.front().name;
  };
  std::string other_gpus;
  for (std::size_t r = 1; r < reports.size(); ++r) {
    if (gpu_of(reports[r]) != gpu_of(reports[0])) {
      other_gpus += (other_gpus.empty() ? "" : ", ") + labels[r] + " (" + gpu_of(reports[r]) + ")";
    }
  }
  if (!other_gpus.empty()) {
    out +=
        "<p class=\"notes\"><strong>Warning:</strong> " +
        markup_text("measured on another GPU than " + labels[0] + " (" + gpu_of(reports[0]) +
                    "): " + other_gpus + "; a step at such a point may be the GPUs' difference") +
        "</p>\n";
  }
  out +=
      "<h2>Reports</h2>\n<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>The points in "
      "order, oldest first</caption>\n"
      "<thead><tr><th scope=\"col\">#</th><th scope=\"col\">Label</th><th scope=\"col\">"
      "Created</th><th scope=\"col\">GPU</th><th scope=\"col\">Driver</th><th scope=\"col\">"
      "kerntime</th><th scope=\"col\">Entries</th></tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const Environment& e = reports[r].environment;
    out += fmt::format(
        "<tr><td class=\"num\">{}</td><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td class=\"num\">{}</td></tr>\n",
        r + 1, markup_text(labels[r]), markup_text(e.created_utc),
        markup_text(e.devices.empty() ? std::string{"-"} : e.devices.front().name),
        markup_text(cuda_version_string(e.driver_version)), markup_text(e.tool_version),
        reports[r].entries.size());
  }
  out += "</tbody>\n</table></div>\n";

  const std::vector<std::size_t> order = chart_order(all);
  out +=
      "<h2>Entries</h2>\n<div class=\"scroll\" tabindex=\"0\"><table>\n<caption>Every entry, those "
      "with steps first: its first "
      "and last median, the change between them, the steps and the noise judged</caption>\n"
      "<thead><tr><th scope=\"col\">Entry</th><th scope=\"col\">Steps</th><th scope=\"col\">"
      "Reports</th><th scope=\"col\">First</th><th scope=\"col\">Last</th><th scope=\"col\">"
      "Change</th><th scope=\"col\">Noise</th></tr></thead>\n<tbody>\n";
  for (const std::size_t i : order) {
    const Series& s = all[i];
    const char* kind = s.found.steps.empty() ? "same" : step_class(s, s.found.steps.back().change);
    const bool moved = s.points.size() >= 2 && s.points.front().median > 0.0;
    out += fmt::format(
        "<tr class=\"{}\"><th scope=\"row\" title=\"{}\">{}</th><td>{}</td><td class=\"num\">{}"
        "</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        kind, markup_text(s.name), markup_text(std::string{shown(i)}),
        markup_text(steps_text(s, labels)), s.points.size(),
        s.points.empty() ? "-" : markup_text(text::format_amount(s.points.front().median, s.unit)),
        s.points.empty() ? "-" : markup_text(text::format_amount(s.points.back().median, s.unit)),
        moved ? markup_text(text::format_change(s.points.back().median / s.points.front().median))
              : "-",
        markup_text(noise_text(s.found)));
  }
  out += "</tbody>\n</table></div>\n<h2>Charts</h2>\n";
  std::string charts;
  std::size_t drawn = 0;
  for (const std::size_t i : order) {
    if (all[i].points.empty()) continue;
    if (charts.size() >= kChartBudgetBytes) break;
    charts += chart(all[i], std::string{shown(i)}, labels, reports.size());
    ++drawn;
  }
  std::size_t drawable = 0;
  for (const Series& s : all)
    drawable += s.points.empty() ? 0 : 1;
  if (drawn < drawable) {
    out += fmt::format(
        "<p>Charts of the {} of {} entries with steps and the largest moves; the page keeps its "
        "charts under {} MB. The table above lists every entry.</p>\n",
        drawn, drawable, kChartBudgetBytes / 1'000'000);
  }
  out += charts;
  out += html_page_end();
  return out;
}

}  // namespace kerntime::format
