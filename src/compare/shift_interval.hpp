// SPDX-License-Identifier: Apache-2.0
// The Hodges-Lehmann (Moses) confidence interval of a location shift, used on log samples to
// bound the ratio of two medians.
#pragma once

#include <cstddef>
#include <vector>

#include <kerntime/statistics.hpp>

namespace kerntime::compare_detail {

/// The k-th smallest (1-based) of the |a| * |b| differences b_j - a_i, without materializing
/// them: a bisection on the value whose count step is a two-pointer sweep, O((n + m) log) time
/// and O(1) extra memory, so a million samples per side cost milliseconds. `a` and `b` must be
/// sorted ascending and non-empty; k in [1, |a| * |b|].
double kth_pairwise_difference(const std::vector<double>& a, const std::vector<double>& b,
                               std::size_t k);

/// The interval [D_(e+1), D_(nm-e)] of the sorted pairwise differences, e = `excluded` (see
/// excluded_differences()). Under a shift model b = a + d it covers d with the chosen level.
/// `a` and `b` must be sorted ascending.
Interval shift_interval(const std::vector<double>& a, const std::vector<double>& b,
                        std::size_t excluded);

}  // namespace kerntime::compare_detail
