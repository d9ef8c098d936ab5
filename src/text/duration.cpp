// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include <kerntime/duration.hpp>

#include "text/numbers.hpp"

namespace kerntime {

// The unit is picked from the value *after* rounding to 4 significant digits, so 999.96 ns
// becomes "1.000 us" and never "1000 ns". fmt's "{:.3e}" does that rounding exactly and its
// exponent already reflects a carry into the next decade.
//
// Total, so that no view can show "inf" or hundreds of digits: a value that is not finite (a
// sum or spread that overflowed) is "overflow", and the ends that fixed-point notation would
// fill with zeros (below 0.001 ns, from 10^12 s) keep 4 significant digits with an exponent.
std::string format_duration(double nanoseconds) {
  if (!std::isfinite(nanoseconds)) return text::kOverflow;
  if (nanoseconds == 0.0) return "0 ns";  // also -0.0: a sign on zero means nothing

  const std::string sign = nanoseconds < 0.0 ? "-" : "";
  const double magnitude = std::fabs(nanoseconds);
  const std::string scientific = fmt::format("{:.3e}", magnitude);  // "d.ddde+XX"
  const std::string digits = scientific.substr(0, 1) + scientific.substr(2, 3);
  const int exponent = std::atoi(scientific.c_str() + scientific.find('e') + 1);

  static constexpr const char* kUnits[] = {"ns", "us", "ms", "s"};
  const int unit = std::min(std::max(exponent, 0) / 3, 3);
  const int point = exponent - 3 * unit;  // digits before the decimal point, minus one

  std::string number;
  if (point < -3) {
    number = scientific;  // 4.941e-324 ns, not 323 zeros
  } else if (point < 0) {
    // Below 1 ns: 0.5 -> "0.5000".
    number = "0." + std::string(static_cast<std::size_t>(-point - 1), '0') + digits;
  } else if (point < 3) {
    number = digits.substr(0, point + 1) + "." + digits.substr(point + 1);
  } else if (point == 3) {
    number = digits;
  } else {
    // 10000 s and up: whole seconds rather than an exponent nobody reads in a table, up to
    // 12 digits (31,700 years); past them the exponent after all.
    number = fmt::format("{:.0f}", magnitude / 1e9);
    if (number.size() > 12) number = fmt::format("{:.3e}", magnitude / 1e9);
  }
  return sign + number + " " + kUnits[unit];
}

}  // namespace kerntime
