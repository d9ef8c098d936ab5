// SPDX-License-Identifier: Apache-2.0
// The pairwise-difference selection against brute force, and the interval's coverage.
#include "compare/shift_interval.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "compare/rank_test.hpp"

namespace kerntime::compare_detail {
namespace {

std::vector<double> all_differences(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  for (double x : a) {
    for (double y : b) {
      d.push_back(y - x);
    }
  }
  std::sort(d.begin(), d.end());
  return d;
}

TEST(CompareShiftInterval, KthDifferenceMatchesBruteForce) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  for (int round = 0; round < 20; ++round) {
    std::vector<double> a(3 + round);
    std::vector<double> b(5 + 2 * round);
    for (double& v : a) {
      v = std::round(noise(rng) * 4.0) / 4.0;  // coarse: many ties
    }
    for (double& v : b) {
      v = noise(rng) + 0.3;
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const std::vector<double> d = all_differences(a, b);
    for (std::size_t k = 1; k <= d.size(); k += 1 + d.size() / 17) {
      EXPECT_DOUBLE_EQ(kth_pairwise_difference(a, b, k), d[k - 1]) << "k " << k;
    }
    EXPECT_DOUBLE_EQ(kth_pairwise_difference(a, b, d.size()), d.back());
  }
}

TEST(CompareShiftInterval, IntervalEndsAreOrderStatistics) {
  const std::vector<double> a = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0};
  const std::vector<double> b = {3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5};
  const std::vector<double> d = all_differences(a, b);
  const Interval ci = shift_interval(a, b, 23);  // 95 % for 10 and 10
  EXPECT_DOUBLE_EQ(ci.low, d[23]);
  EXPECT_DOUBLE_EQ(ci.high, d[100 - 24]);
  EXPECT_LT(ci.low, 2.5);
  EXPECT_GT(ci.high, 2.5);
}

TEST(CompareShiftInterval, CoversTheTrueShiftAtTheNominalRate) {
  // 2,000 pairs of lognormal samples with a known 7 % slowdown: the 95 % interval of the log shift
  // must contain log(1.07) in about 95 % of them.
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> noise(0.0, 0.05);
  const double shift = std::log(1.07);
  int covered = 0;
  const int rounds = 2000;
  for (int round = 0; round < rounds; ++round) {
    std::vector<double> a(20);
    std::vector<double> b(25);
    for (double& v : a) {
      v = std::log(noise(rng));
    }
    for (double& v : b) {
      v = std::log(noise(rng) * 1.07);
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const auto excluded = excluded_differences(20, 25, 0.95, true, 0.0);
    ASSERT_TRUE(excluded.has_value());
    const Interval ci = shift_interval(a, b, *excluded);
    covered += ci.low <= shift && shift <= ci.high ? 1 : 0;
  }
  const double rate = static_cast<double>(covered) / rounds;
  EXPECT_GT(rate, 0.93);
  EXPECT_LT(rate, 0.97);
}

TEST(CompareShiftInterval, LargeSamplesAreFast) {
  // A million pairs per quantile would be a terabyte materialized; the sweep needs none.
  std::vector<double> a(200000);
  std::vector<double> b(200000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(i);
    b[i] = static_cast<double>(i) + 0.5;
  }
  const std::size_t pairs = a.size() * b.size();
  EXPECT_DOUBLE_EQ(kth_pairwise_difference(a, b, pairs / 2), 0.5);
}

}  // namespace
}  // namespace kerntime::compare_detail
