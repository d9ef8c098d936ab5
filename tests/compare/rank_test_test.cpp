// SPDX-License-Identifier: Apache-2.0
// The Mann-Whitney U test against SciPy 1.17 (scipy.stats.mannwhitneyu) and exact tables.
#include "compare/rank_test.hpp"

#include <cmath>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::compare_detail {
namespace {

TEST(CompareRankTest, NullDistributionOfTwoAndTwo) {
  // The six arrangements of two a's and two b's give U = 0, 1, 2, 2, 3, 4.
  const std::vector<double> pmf = mann_whitney_null_distribution(2, 2);
  const std::vector<double> expected = {1.0 / 6, 1.0 / 6, 2.0 / 6, 1.0 / 6, 1.0 / 6};
  ASSERT_EQ(pmf.size(), expected.size());
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    EXPECT_NEAR(pmf[i], expected[i], 1e-15);
  }
}

TEST(CompareRankTest, NullDistributionSumsToOneAndIsSymmetric) {
  const std::vector<double> pmf = mann_whitney_null_distribution(37, 270);
  EXPECT_NEAR(std::accumulate(pmf.begin(), pmf.end(), 0.0), 1.0, 1e-12);
  for (std::size_t u = 0; u < pmf.size(); ++u) {
    EXPECT_NEAR(pmf[u], pmf[pmf.size() - 1 - u], 1e-15);
  }
  // P(U <= 3) for sizes 4 and 6 is 7 / 210, counted by hand from the recurrence.
  const std::vector<double> small = mann_whitney_null_distribution(4, 6);
  EXPECT_NEAR(small[0] + small[1] + small[2] + small[3], 7.0 / 210.0, 1e-15);
}

TEST(CompareRankTest, ExactMatchesScipy) {
  const std::vector<double> a = {1.1, 2.2, 3.3, 4.4, 5.5, 10.0, 0.5};
  const std::vector<double> b = {3.0, 4.05, 6.0, 7.0, 8.0, 9.0, 12.0, 2.5};
  const RankTestResult r = mann_whitney_u(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 41.0);
  EXPECT_NEAR(r.p_value, 0.151981351981352, 1e-12);
}

TEST(CompareRankTest, TiesUseTheCorrectedNormalApproximation) {
  const std::vector<double> a = {1, 2, 2, 3, 3, 3, 4, 5, 6, 7, 7};
  const std::vector<double> b = {3, 4, 4, 5, 6, 6, 8, 9, 9, 10, 11, 12};
  const RankTestResult r = mann_whitney_u(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 108.0);
  EXPECT_NEAR(r.p_value, 0.010224470923366128, 1e-12);
  EXPECT_GT(r.tie_term, 0.0);
}

TEST(CompareRankTest, SwappingSidesKeepsTheTwoSidedP) {
  const std::vector<double> a = {1.1, 2.2, 3.3, 4.4, 5.5, 10.0, 0.5};
  const std::vector<double> b = {3.0, 4.05, 6.0, 7.0, 8.0, 9.0, 12.0, 2.5};
  const RankTestResult ab = mann_whitney_u(a, b);
  const RankTestResult ba = mann_whitney_u(b, a);
  EXPECT_DOUBLE_EQ(ab.u + ba.u, 56.0);
  EXPECT_NEAR(ab.p_value, ba.p_value, 1e-15);
}

TEST(CompareRankTest, AllTiedGivesNoEvidence) {
  const std::vector<double> a(10, 5.0);
  const RankTestResult r = mann_whitney_u(a, a);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
}

TEST(CompareRankTest, SmallestAchievableP) {
  EXPECT_NEAR(smallest_two_sided_p(5, 5), 2.0 / 252.0, 1e-15);
  EXPECT_NEAR(smallest_two_sided_p(4, 4), 2.0 / 70.0, 1e-15);
  EXPECT_DOUBLE_EQ(smallest_two_sided_p(1, 1), 1.0);
  EXPECT_DOUBLE_EQ(smallest_two_sided_p(0, 9), 1.0);
  // Complete separation reaches it.
  const RankTestResult r = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_NEAR(r.p_value, 2.0 / 252.0, 1e-15);
}

TEST(CompareRankTest, ExcludedDifferencesMatchCriticalValueTables) {
  // Two-sided 5 %, n = m = 10: reject when U <= 23 (standard tables).
  EXPECT_EQ(excluded_differences(10, 10, 0.95, true, 0.0), std::optional<std::size_t>(23));
  // Two-sided 1 %, n = m = 15: U <= 51.
  EXPECT_EQ(excluded_differences(15, 15, 0.99, true, 0.0), std::optional<std::size_t>(51));
  // Four per side cannot reach 1 %.
  EXPECT_EQ(excluded_differences(4, 4, 0.99, true, 0.0), std::nullopt);
  // Large samples: the normal approximation is within 0.5 % of the exact count.
  const auto exact = excluded_differences(60, 60, 0.99, true, 0.0);
  const auto normal = excluded_differences(60, 60, 0.99, false, 0.0);
  ASSERT_TRUE(exact && normal);
  EXPECT_NEAR(static_cast<double>(*normal), static_cast<double>(*exact), 0.005 * *exact);
}

TEST(CompareRankTest, NormalQuantile) {
  EXPECT_NEAR(normal_upper_quantile(0.025), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_upper_quantile(0.005), 2.5758293035489004, 1e-12);
  EXPECT_NEAR(normal_upper_quantile(0.5), 0.0, 1e-12);
}

}  // namespace
}  // namespace kerntime::compare_detail
