// SPDX-License-Identifier: Apache-2.0
#include "trace/value_summary.hpp"

#include <algorithm>
#include <cmath>

#include <kerntime/statistics.hpp>

namespace kerntime::trace {

ValueSummary summarize_values(std::vector<std::uint64_t>& values) {
  ValueSummary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.count = values.size();
  s.min = values.front();
  s.max = values.back();
  for (const std::uint64_t v : values)
    s.total += v;
  const double n = static_cast<double>(values.size());
  s.average = static_cast<double>(s.total) / n;
  const std::vector<double> sorted(values.begin(), values.end());
  s.median = quantile_sorted(sorted, 0.5);
  if (values.size() >= 2) {
    double squares = 0.0;
    for (const double v : sorted) {
      const double d = v - s.average;
      squares += d * d;
    }
    s.stddev = std::sqrt(squares / (n - 1.0));
  }
  return s;
}

double percent_of(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace kerntime::trace
