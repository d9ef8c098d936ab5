// SPDX-License-Identifier: Apache-2.0
// An axis of kerntime's HTML plots: round ticks over the data's range, every tick written in one
// unit chosen for the axis (420 ns ... 1.2 us reads as 0.4, 0.8, 1.2 us), so that the numbers of
// one axis compare at a glance.
#pragma once

#include <string>
#include <vector>

namespace kerntime::format {

struct PlotAxis {
  double low = 0.0;   ///< the first tick, at or below the data's least value
  double high = 1.0;  ///< the last tick, at or above the data's largest value
  std::vector<double> ticks;
  std::string unit;    ///< of the tick labels: "us" for values in ns around a microsecond
  double divisor = 1;  ///< value / divisor is the label's number
  int decimals = 0;

  /// "1.25 us": `value` (in the data's unit) written in the axis' unit.
  std::string label(double value) const;
  /// Where `value` lies between low (0) and high (1).
  double at(double value) const { return (value - low) / (high - low); }
};

/// An axis for values in `unit` from `least` to `largest` with about `ticks` ticks. Durations
/// ("ns", "us", "ms", "s") are written in the unit that suits the axis' largest tick; other units
/// keep their own name. `from_zero` starts the axis at 0 (bars). A range under a millionth of its
/// size is widened by 1 % (an all-zero one to 1), never below 0 when the values are not.
PlotAxis make_plot_axis(double least, double largest, const std::string& unit, int ticks = 5,
                        bool from_zero = false);

}  // namespace kerntime::format
