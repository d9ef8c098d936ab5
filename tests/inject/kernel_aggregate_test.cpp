// SPDX-License-Identifier: Apache-2.0
// A kernel's durations in bounded memory: exact totals and a uniform sample of fixed size.
#include "inject/kernel_aggregate.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include <kerntime/statistics.hpp>

namespace kerntime::inject {
namespace {

TEST(DurationAggregate, ExactTotalsAndAUniformSampleOfBoundedSize) {
  DurationAggregate aggregate(1000);
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> duration(8.0, 0.5);
  double total = 0.0, low = 1e300, high = 0.0;
  std::vector<double> all;
  for (int i = 0; i < 200'000; ++i) {
    const double d = std::round(duration(random));
    aggregate.add(d);
    all.push_back(d);
    total += d;
    low = std::min(low, d);
    high = std::max(high, d);
  }
  EXPECT_EQ(aggregate.count(), 200'000u);
  EXPECT_DOUBLE_EQ(aggregate.total_ns(), total);
  EXPECT_EQ(aggregate.min_ns(), low);
  EXPECT_EQ(aggregate.max_ns(), high);
  EXPECT_EQ(aggregate.kept().size(), 1000u);
  // The median of all 200,000 from the sketch: within its 0.5 % relative accuracy.
  std::sort(all.begin(), all.end());
  const double exact_median = quantile_sorted(all, 0.5);
  EXPECT_NEAR(aggregate.median_ns(), exact_median, exact_median * 0.005);
  EXPECT_FALSE(aggregate.complete());
  // A uniform sample of a log-normal: its median is near exp(8) = 2981 ns.
  std::vector<double> kept = aggregate.kept();
  std::sort(kept.begin(), kept.end());
  EXPECT_NEAR(quantile_sorted(kept, 0.5), 2981.0, 2981.0 * 0.05);
  EXPECT_NEAR(aggregate.stddev_ns(), 2981.0 * std::sqrt((std::exp(0.25) - 1) * std::exp(0.25)),
              120.0);
}

TEST(DurationAggregate, KeepsEveryDurationBelowItsCapacity) {
  DurationAggregate aggregate(10);
  for (int i = 1; i <= 10; ++i)
    aggregate.add(i);
  EXPECT_TRUE(aggregate.complete());
  EXPECT_EQ(aggregate.kept(), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_DOUBLE_EQ(aggregate.mean_ns(), 5.5);
}

}  // namespace
}  // namespace kerntime::inject
