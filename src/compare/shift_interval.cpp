// SPDX-License-Identifier: Apache-2.0
#include "compare/shift_interval.hpp"

#include <cstddef>
#include <vector>

namespace kerntime::compare_detail {
namespace {

struct CountResult {
  std::size_t count = 0;     // differences <= v
  double largest_below = 0;  // the largest difference <= v, valid when count > 0
};

// For each b_j the differences b_j - a_i <= v are those with a_i >= b_j - v; as j grows that
// bound grows, so one pointer into `a` serves every j.
CountResult count_at_most(const std::vector<double>& a, const std::vector<double>& b, double v) {
  CountResult result;
  bool found = false;
  std::size_t i = 0;
  for (double bj : b) {
    while (i < a.size() && bj - a[i] > v)
      ++i;
    if (i == a.size()) break;
    result.count += a.size() - i;
    const double d = bj - a[i];
    if (!found || d > result.largest_below) result.largest_below = d;
    found = true;
  }
  return result;
}

}  // namespace

double kth_pairwise_difference(const std::vector<double>& a, const std::vector<double>& b,
                               std::size_t k) {
  // Invariant: count(lo) < k <= count(hi). Bisection stops when no double lies between them
  // (or after a bound that only matters when the answer is exactly zero and lo creeps toward it).
  double lo = b.front() - a.back();
  double hi = b.back() - a.front();
  if (count_at_most(a, b, lo).count >= k) return lo;
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double mid = lo + (hi - lo) / 2.0;
    if (mid <= lo || mid >= hi) break;
    if (count_at_most(a, b, mid).count >= k) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  // Snap to the actual difference, so the interval's ends are real sample ratios.
  return count_at_most(a, b, hi).largest_below;
}

Interval shift_interval(const std::vector<double>& a, const std::vector<double>& b,
                        std::size_t excluded) {
  const std::size_t pairs = a.size() * b.size();
  return Interval{kth_pairwise_difference(a, b, excluded + 1),
                  kth_pairwise_difference(a, b, pairs - excluded)};
}

}  // namespace kerntime::compare_detail
