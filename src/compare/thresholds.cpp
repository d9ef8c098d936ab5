// SPDX-License-Identifier: Apache-2.0
// `--threshold` arguments: relative amounts, glob patterns, and which rule applies to an entry.
#include "compare/thresholds.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

namespace kerntime {
namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

// strtod needs a terminated string and accepts hex, "inf" and leading blanks; only plain
// decimals are thresholds.
bool parse_decimal(std::string_view text, double& value) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) {
      return false;
    }
  }
  const std::string copy(text);
  char* end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(value);
}

}  // namespace

double parse_fraction(std::string_view text) {
  const std::string_view body = trim(text);
  const bool percent = !body.empty() && body.back() == '%';
  double value = 0.0;
  if (!parse_decimal(trim(percent ? body.substr(0, body.size() - 1) : body), value)) {
    throw Error("threshold '" + std::string(text) +
                "' is not a number: write a percentage such as 5% or a fraction such as 0.05.");
  }
  if (percent) value /= 100.0;
  if (!percent && value >= 1.0) {
    throw Error("threshold '" + std::string(text) + "' is ambiguous: write " + std::string(body) +
                "% for a percentage, or a fraction below 1 such as 0.05.");
  }
  if (value < 0.0 || value >= 1.0) {
    throw Error("threshold '" + std::string(text) + "' is out of range: it must be at least 0% " +
                "and below 100%.");
  }
  return value;
}

double parse_duration_ns(std::string_view text) {
  std::string_view body = trim(text);
  struct Unit {
    std::string_view suffix;
    double ns;
  };
  // "ns" before "s": the longest suffix that matches wins.
  constexpr Unit units[] = {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  double scale = 0.0;
  for (const Unit& unit : units) {
    if (body.size() > unit.suffix.size() &&
        body.substr(body.size() - unit.suffix.size()) == unit.suffix) {
      scale = unit.ns;
      body = trim(body.substr(0, body.size() - unit.suffix.size()));
      break;
    }
  }
  double value = 0.0;
  const bool number = parse_decimal(body, value);
  if (!number || (scale == 0.0 && value != 0.0) || value < 0.0) {
    throw Error("duration '" + std::string(text) +
                "' is not a duration: write a number with a unit, such as 500ns, 0.5us or 2ms, "
                "or 0.");
  }
  const double ns = value * (scale == 0.0 ? 1.0 : scale);
  // 1e308s is a decimal strtod accepts but not a number of nanoseconds a double holds.
  if (!std::isfinite(ns)) {
    throw Error("duration '" + std::string(text) +
                "' is too large: it overflows a number of nanoseconds; write a duration such as "
                "500ns, 0.5us or 2ms.");
  }
  return ns;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Greedy matching with one backtrack point: the last '*' seen absorbs one more character
  // whenever what follows it fails. Linear in practice, never exponential.
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;
  std::size_t star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*')
    ++p;
  return p == pattern.size();
}

void Thresholds::add(std::string_view spec) {
  const auto equals = spec.rfind('=');
  if (equals == std::string_view::npos) {
    default_fraction = parse_fraction(spec);
    return;
  }
  const std::string_view pattern = trim(spec.substr(0, equals));
  if (pattern.empty()) {
    throw Error("threshold '" + std::string(spec) +
                "' has no pattern before '=': write e.g. 'gemm/*=10%'.");
  }
  rules.push_back(ThresholdRule{std::string(pattern), parse_fraction(spec.substr(equals + 1))});
}

double Thresholds::for_entry(std::string_view name) const {
  for (auto rule = rules.rbegin(); rule != rules.rend(); ++rule) {
    if (glob_match(rule->pattern, name)) return rule->fraction;
  }
  return default_fraction;
}

}  // namespace kerntime
