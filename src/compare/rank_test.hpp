// SPDX-License-Identifier: Apache-2.0
// The Mann-Whitney U (Wilcoxon rank-sum) test: compare()'s significance test.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace kerntime::compare_detail {

/// Result of a two-sided Mann-Whitney U test of `b` against `a`.
struct RankTestResult {
  /// Pairs (a_i, b_j) with b_j > a_i, ties counting one half; n * m / 2 under the null.
  double u = 0.0;
  double p_value = 1.0;   ///< two-sided
  bool exact = false;     ///< from the exact null distribution, else the normal approximation
  double tie_term = 0.0;  ///< sum of t^3 - t over groups of t tied values in the pooled samples
};

/// Largest n * m for which the exact null distribution is used (when there are no ties). Above
/// it the normal approximation is accurate to well below any usable alpha and the exact
/// distribution would cost O(n^2 m) time.
inline constexpr std::size_t kExactMaxPairs = 10000;

/// Runs the test. Exact when there are no ties and |a| * |b| <= kExactMaxPairs; otherwise the
/// normal approximation with tie-corrected variance and continuity correction (what SciPy's
/// `mannwhitneyu(method="asymptotic")` computes). Both inputs need at least one value.
RankTestResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

/// The smallest two-sided p the test can produce with n and m samples: 2 / C(n + m, n), reached
/// only when the two samples do not overlap at all. If it is not below alpha the test cannot
/// reject whatever the data, so asking it is pointless (asv's check).
double smallest_two_sided_p(std::size_t n, std::size_t m);

/// P(U = u) for u = 0 .. n * m under the null hypothesis, without ties.
std::vector<double> mann_whitney_null_distribution(std::size_t n, std::size_t m);

/// Two-sided p of the normal approximation for a U statistic, given the tie term
/// sum(t^3 - t) over groups of tied values.
double mann_whitney_normal_p(double u, std::size_t n, std::size_t m, double tie_term);

/// Standard deviation of U under the null, with tie correction.
double mann_whitney_sd(std::size_t n, std::size_t m, double tie_term);

/// How many of the n * m pairwise differences b_j - a_i a two-sided confidence interval at
/// `level` leaves out at each end: the interval runs from the (e + 1)-th smallest difference to
/// the (e + 1)-th largest. Derived from the same null distribution as the test (exact, or normal
/// with `tie_term`), so the interval excludes zero exactly when the test rejects at 1 - level.
/// Empty when even the extreme differences cannot reach the level (too few samples).
std::optional<std::size_t> excluded_differences(std::size_t n, std::size_t m, double level,
                                                bool exact, double tie_term);

/// Upper quantile of the standard normal distribution: z with P(Z > z) = upper_tail.
double normal_upper_quantile(double upper_tail);

}  // namespace kerntime::compare_detail
