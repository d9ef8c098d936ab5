// SPDX-License-Identifier: Apache-2.0
// Small numeric helpers the stats layer shares: how a double appears in a message, and the
// interpolation every quantile of kerntime uses.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kerntime::stats {

// Shortest "%g" text that reads back as the same double, so an error message shows the value the
// caller actually passed (0.95 stays "0.95", 1 - 1e-12 does not collapse to "1").
inline std::string format_double(double value) {
  char text[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

// NumPy's lerp: the `t >= 0.5` branch interpolates from the upper end so that t == 1 returns
// exactly b and the result stays monotone in t. The fallback only matters when b - a overflows.
inline double lerp(double a, double b, double t) {
  const double diff = b - a;
  if (!std::isfinite(diff)) return a * (1.0 - t) + b * t;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

}  // namespace kerntime::stats
