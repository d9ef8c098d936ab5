// SPDX-License-Identifier: Apache-2.0
#include "format/html_axis.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

// 1, 2, 2.5 or 5 times a power of ten: the step of ticks people read without effort.
double round_step(double span, int ticks) {
  const double raw = span / std::max(1, ticks - 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10.0 * power;
}

}  // namespace

std::string PlotAxis::label(double value) const {
  const std::string number = fmt::format("{:.{}f}", value / divisor, decimals);
  return unit.empty() ? number : number + " " + unit;
}

PlotAxis make_plot_axis(double least, double largest, const std::string& unit, int ticks,
                        bool from_zero) {
  PlotAxis axis;
  if (!std::isfinite(least) || !std::isfinite(largest)) least = largest = 0.0;
  if (least > largest) std::swap(least, largest);
  if (from_zero) least = std::min(0.0, least);
  // A range of a few ulps (the same time read in us and in ns) would give a step under the
  // resolution of its values: widen anything under a millionth of its size, and an all-zero
  // range to one unit.
  const double size = std::max(std::fabs(least), std::fabs(largest));
  if (!(largest - least > size * 1e-6)) {
    const double pad = size > 0.0 ? size * 0.01 : 1.0;
    // Times are never negative: a range at 0 widens upwards only.
    least = least >= 0.0 && least - pad < 0.0 ? 0.0 : least - pad;
    largest += pad;
  }
  // Spans beyond what a double holds halved (both ends finite, their difference not).
  const double span = std::isfinite(largest - least) ? largest - least : largest / 2 - least / 2;
  const double step = round_step(span, std::max(2, ticks));
  axis.low = std::floor(least / step) * step;
  axis.high = std::ceil(largest / step) * step;
  if (!(axis.high > axis.low)) axis.high = axis.low + step;
  // Counted, not accumulated: a sum of steps never drifts past the end.
  const long count = std::lround(axis.high / step - axis.low / step);
  for (long i = 0; i <= count; ++i) {
    const double t = axis.low + static_cast<double>(i) * step;
    axis.ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }

  const double per_ns = text::nanoseconds_per(unit);
  axis.unit = unit;
  if (per_ns != 0.0) {
    const double largest_ns = std::max(std::fabs(axis.low), std::fabs(axis.high)) * per_ns;
    const struct {
      const char* name;
      double ns;
    } units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}};
    for (const auto& u : units) {
      if (largest_ns >= u.ns || u.ns == 1.0) {
        axis.unit = u.name;
        axis.divisor = u.ns / per_ns;
        break;
      }
    }
  }
  const double shown_step = step / axis.divisor;
  axis.decimals = std::clamp(static_cast<int>(-std::floor(std::log10(shown_step) + 1e-9)), 0, 9);
  // 2.5 needs one more decimal than its power of ten.
  if (std::fabs(shown_step * std::pow(10.0, axis.decimals) -
                std::round(shown_step * std::pow(10.0, axis.decimals))) > 1e-6) {
    ++axis.decimals;
  }
  return axis;
}

}  // namespace kerntime::format
