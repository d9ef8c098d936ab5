// SPDX-License-Identifier: Apache-2.0
// Steps in a history of reports: planted steps are found at their point and with their size;
// noise alone, a step under the threshold and a step the noise between processes could explain
// are not marked.
#include "stats/change_points.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::stats {
namespace {

// `n` points around `level` with relative noise `noise` (normal, seeded), times `factor` from
// point `step` on.
std::vector<TrendPoint> series(std::size_t n, double level, double noise, std::size_t step,
                               double factor, unsigned seed = 7) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0.0, noise);
  std::vector<TrendPoint> points;
  for (std::size_t i = 0; i < n; ++i) {
    const double at = level * (i >= step ? factor : 1.0);
    points.push_back({at * std::exp(normal(random))});
  }
  return points;
}

TEST(ChangePoints, APlantedTenPercentStepIsFoundAtItsPointWithItsSize) {
  const ChangePoints found = find_change_points(series(12, 100.0, 0.01, 6, 1.10));
  ASSERT_TRUE(found.usable);
  ASSERT_EQ(found.steps.size(), 1u);
  EXPECT_EQ(found.steps[0].index, 6u);
  EXPECT_NEAR(found.steps[0].change, 0.10, 0.015);
  EXPECT_GT(found.noise, 0.003);
  EXPECT_LT(found.noise, 0.03);
}

TEST(ChangePoints, AStepAtTheLastPointIsFound) {
  // The commit under review is the newest point: one report after the step is enough when the
  // step is far beyond the noise.
  const ChangePoints found = find_change_points(series(10, 2500.0, 0.005, 9, 1.12));
  ASSERT_EQ(found.steps.size(), 1u);
  EXPECT_EQ(found.steps[0].index, 9u);
  EXPECT_NEAR(found.steps[0].change, 0.12, 0.02);
}

TEST(ChangePoints, AStepDownAndTwoStepsAreFound) {
  std::vector<TrendPoint> points = series(15, 50.0, 0.005, 5, 0.80);
  for (std::size_t i = 10; i < points.size(); ++i)
    points[i].median *= 1.5;  // 0.8 * 1.5 = 1.2 of the first level
  const ChangePoints found = find_change_points(points);
  ASSERT_EQ(found.steps.size(), 2u);
  EXPECT_EQ(found.steps[0].index, 5u);
  EXPECT_NEAR(found.steps[0].change, -0.20, 0.02);
  EXPECT_EQ(found.steps[1].index, 10u);
  EXPECT_NEAR(found.steps[1].change, 0.50, 0.03);
}

TEST(ChangePoints, NoiseAloneIsNotMarked) {
  for (unsigned seed = 1; seed <= 50; ++seed) {
    const ChangePoints found = find_change_points(series(20, 100.0, 0.03, 20, 1.0, seed));
    EXPECT_TRUE(found.steps.empty()) << "seed " << seed << ": step at " << found.steps[0].index;
  }
}

TEST(ChangePoints, AStepUnderTheThresholdIsNotMarked) {
  // 3 % is far beyond a noise of 0.2 %, but under the 5 % threshold.
  EXPECT_TRUE(find_change_points(series(12, 100.0, 0.002, 6, 1.03)).steps.empty());
  ChangePointOptions two_percent;
  two_percent.threshold = 0.02;
  const ChangePoints found = find_change_points(series(12, 100.0, 0.002, 6, 1.03), two_percent);
  ASSERT_EQ(found.steps.size(), 1u);
  EXPECT_EQ(found.steps[0].index, 6u);
}

TEST(ChangePoints, TheRunsInsideThePointsSetTheNoiseWhenTheyAreWider) {
  // Every point's median moves 6 % at point 4, and the series itself is quiet; but each point
  // holds 2 processes that differ by 40 %: a 6 % step between points of that spread can be chance.
  std::vector<TrendPoint> points = series(8, 100.0, 0.001, 4, 1.06);
  ASSERT_EQ(find_change_points(points).steps.size(), 1u);
  for (TrendPoint& p : points)
    p.run_medians = {p.median * 0.8, p.median * 1.2};
  const ChangePoints found = find_change_points(points);
  EXPECT_TRUE(found.steps.empty());
  EXPECT_GT(found.noise, 0.15);
}

TEST(ChangePoints, FlatAndShortSeries) {
  EXPECT_TRUE(find_change_points({}).steps.empty());
  EXPECT_TRUE(find_change_points({{5.0}}).steps.empty());
  // Two points without noise: a step beyond the threshold is all there is to judge by.
  const ChangePoints two = find_change_points({{100.0}, {120.0}});
  ASSERT_EQ(two.steps.size(), 1u);
  EXPECT_EQ(two.steps[0].index, 1u);
  EXPECT_NEAR(two.steps[0].change, 0.20, 1e-12);
  EXPECT_TRUE(find_change_points({{7.0}, {7.0}, {7.0}, {7.0}}).steps.empty());
}

TEST(ChangePoints, EveryStepIsBeyondTheThresholdAgainstItsNeighbours) {
  // Random walks of steps around the threshold: whatever the splits found, no step may be said
  // under the threshold once it is measured against the levels on its sides.
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> move(-0.08, 0.08);
  std::normal_distribution<double> noise(0.0, 0.002);
  std::size_t steps = 0;
  for (int series_index = 0; series_index < 300; ++series_index) {
    std::vector<TrendPoint> points;
    double level = 100.0;
    for (int i = 0; i < 12; ++i) {
      if (i % 3 == 0) level *= 1.0 + move(random);
      points.push_back({level * std::exp(noise(random))});
    }
    const ChangePoints found = find_change_points(points);
    for (const ChangePoint& c : found.steps) {
      EXPECT_GT(std::fabs(std::log1p(c.change)), std::log1p(0.05)) << "series " << series_index;
      ++steps;
    }
  }
  EXPECT_GT(steps, 100u);  // the series do have steps
}

TEST(ChangePoints, RepeatedReportsSayNothingOfTheNoise) {
  // The same report at three commits, then a 7 % move: the repeats are no evidence of a quiet
  // series; with one difference left the noise is unknown and the threshold decides.
  std::vector<TrendPoint> points{{100.0}, {100.0}, {100.0}, {107.0}};
  points[1].repeats_previous = points[2].repeats_previous = true;
  const ChangePoints once = find_change_points(points);
  EXPECT_EQ(once.noise, 0.0);
  ASSERT_EQ(once.steps.size(), 1u);
  // Noisy reports, each given twice: the noise comes from the differences between reports.
  std::vector<TrendPoint> noisy{{100.0}, {100.0}, {104.0}, {104.0}, {99.0},
                                {99.0},  {103.0}, {103.0}, {107.0}};
  for (std::size_t i = 1; i < noisy.size(); i += 2)
    noisy[i].repeats_previous = true;
  const ChangePoints judged = find_change_points(noisy);
  EXPECT_GT(judged.noise, 0.02);
  EXPECT_TRUE(judged.steps.empty());
}

TEST(ChangePoints, EqualMediansOfSeparateRunsAreAQuietSeries) {
  // A 1 ms spin read at 32 ns steps: five runs at exactly 1.001 ms, then three slowed by 10 %,
  // two of them equal too. The step is found (the equal medians are real measurements).
  const ChangePoints found = find_change_points({{1001000.0},
                                                 {1001000.0},
                                                 {1001000.0},
                                                 {1001000.0},
                                                 {1001000.0},
                                                 {1101100.0},
                                                 {1101100.0},
                                                 {1101132.0}});
  ASSERT_EQ(found.steps.size(), 1u);
  EXPECT_EQ(found.steps[0].index, 5u);
  EXPECT_NEAR(found.steps[0].change, 0.10, 0.001);
}

TEST(ChangePoints, AMedianThatIsNotPositiveMakesTheSeriesUnusable) {
  EXPECT_FALSE(find_change_points({{1.0}, {0.0}, {1.0}}).usable);
  EXPECT_FALSE(find_change_points({{1.0}, {NAN}}).usable);
  EXPECT_FALSE(find_change_points({{1.0, {1.0, -1.0}}}).usable);
}

}  // namespace
}  // namespace kerntime::stats
