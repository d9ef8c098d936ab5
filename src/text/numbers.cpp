// SPDX-License-Identifier: Apache-2.0
#include "text/numbers.hpp"

#include <cmath>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include <kerntime/duration.hpp>

namespace kerntime::detail {

std::string format_change(double ratio) {
  const double percent = (ratio - 1.0) * 100.0;
  // Rounding can make a tiny negative change print as "-0.0%"; say "+0.0%" instead.
  return fmt::format("{:+.1f}%", std::abs(percent) < 0.05 ? 0.0 : percent);
}

std::string format_percent(double fraction) {
  return fmt::format("{:g}%", fraction * 100.0);
}

constexpr double kSmallestP = 1e-15;

std::string format_p(double p) {
  if (p >= 0.001) return fmt::format("{:.3f}", p);
  if (p < kSmallestP) return "<1e-15";
  return fmt::format("{:.1e}", p);
}

std::string p_clause(double p) {
  return p < kSmallestP ? std::string("p < 1e-15") : "p = " + format_p(p);
}

double nanoseconds_per(const std::string& unit) {
  if (unit == "ns") return 1.0;
  if (unit == "us" || unit == "\xc2\xb5s") return 1e3;  // "µs" too
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0.0;
}

std::string format_si(double value) {
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  std::size_t prefix = 0;
  // 999.96 rounds to 1000 at four digits: that is 1k.
  while (std::fabs(value) >= 999.95 && prefix + 1 < std::size(kPrefixes)) {
    value /= 1000.0;
    ++prefix;
  }
  return fmt::format("{:.4g}{}", value, kPrefixes[prefix]);
}

std::string format_amount(double value, const std::string& unit) {
  const double scale = nanoseconds_per(unit);
  if (scale != 0.0) return format_duration(value * scale);
  return fmt::format("{:.4g} {}", value, unit);
}

}  // namespace kerntime::detail
