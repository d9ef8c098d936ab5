// SPDX-License-Identifier: Apache-2.0
#include "text/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include <kerntime/duration.hpp>

namespace kerntime::text {
namespace {

// Past this many significant digits a number is written with an exponent: no one reads more,
// and a double holds no more than 17 anyway.
constexpr std::size_t kMostDigits = 12;

// Changes of 1e10 % (a ratio of 1e8) and more: beyond any two timings worth comparing, and
// "+10000000000.0%" already has 12 digits.
constexpr double kLargestChangePercent = 1e10;

std::size_t digits_in(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }));
}

// 4 significant digits with an exponent: "1.000e+290", "4.941e-324".
std::string with_exponent(double value) {
  return fmt::format("{:.3e}", value);
}

}  // namespace

bool change_fits(double fraction) {
  const double percent = fraction * 100.0;
  return std::isfinite(percent) && std::fabs(percent) < kLargestChangePercent;
}

std::string format_change(double ratio) {
  const double fraction = ratio - 1.0;
  if (!change_fits(fraction)) return kTooLargeToCompare;
  const double percent = fraction * 100.0;
  // Rounding can make a tiny negative change print as "-0.0%"; say "+0.0%" instead.
  return fmt::format("{:+.1f}%", std::abs(percent) < 0.05 ? 0.0 : percent);
}

std::string format_change_size(double fraction) {
  if (!change_fits(fraction)) return kTooLargeToCompare;
  return fmt::format("{:.1f}%", std::fabs(fraction) * 100.0);
}

std::string format_percent(double fraction) {
  const double percent = fraction * 100.0;
  if (!std::isfinite(percent)) return kTooLargeToCompare;
  return fmt::format("{:g}%", percent);
}

constexpr double kSmallestP = 1e-15;

std::string format_p(double p) {
  if (!std::isfinite(p)) return "undefined";
  // Rounding can leave a p-value a hair above 1.
  if (p >= 0.001) return fmt::format("{:.3f}", std::min(p, 1.0));
  if (p < kSmallestP) return "<1e-15";
  return fmt::format("{:.1e}", p);
}

std::string p_clause(double p) {
  if (!std::isfinite(p)) return "p undefined";
  return p < kSmallestP ? std::string("p < 1e-15") : "p = " + format_p(p);
}

std::string format_fixed(double value, int decimals) {
  if (!std::isfinite(value)) return kOverflow;
  std::string text = fmt::format("{:.{}f}", value, std::max(decimals, 0));
  return digits_in(text) > kMostDigits ? with_exponent(value) : text;
}

std::string format_percent_value(double percent, int decimals) {
  if (!std::isfinite(percent)) return kOverflow;
  return format_fixed(percent, decimals) + "%";
}

double nanoseconds_per(const std::string& unit) {
  if (unit == "ns") return 1.0;
  if (unit == "us" || unit == "\xc2\xb5s") return 1e3;  // "µs" too
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0.0;
}

std::string format_si(double value) {
  if (!std::isfinite(value)) return kOverflow;
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  const double given = value;
  std::size_t prefix = 0;
  // 999.96 rounds to 1000 at four digits: that is 1k.
  while (std::fabs(value) >= 999.95 && prefix + 1 < std::size(kPrefixes)) {
    value /= 1000.0;
    ++prefix;
  }
  if (std::fabs(value) >= 999.95) return with_exponent(given);  // 1000E and up
  return fmt::format("{:.4g}{}", value, kPrefixes[prefix]);
}

std::string format_amount(double value, const std::string& unit) {
  if (!std::isfinite(value)) return kOverflow;
  const double scale = nanoseconds_per(unit);
  if (scale != 0.0) {
    const double nanoseconds = value * scale;
    // Above 1.8e299 s there are more nanoseconds than a double holds: stay in the unit given.
    if (std::isfinite(nanoseconds)) return format_duration(nanoseconds);
    return with_exponent(value) + " " + unit;
  }
  return fmt::format("{:.4g} {}", value, unit);
}

std::string format_whole_ns(double nanoseconds) {
  if (!std::isfinite(nanoseconds)) return kOverflow;
  const std::string text = fmt::format("{:.0f} ns", nanoseconds);
  return digits_in(text) > kMostDigits ? format_duration(nanoseconds) : text;
}

std::string format_exact(double value) {
  return std::isfinite(value) ? fmt::format("{}", value) : std::string{};
}

}  // namespace kerntime::text
