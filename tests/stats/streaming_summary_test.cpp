// SPDX-License-Identifier: Apache-2.0
// StreamingSummary against kerntime::compute_statistics: exact count, sum, min and max; the
// quantiles within the sketch's accuracy; a compensated sum; merging; 10 million kernels.
#include "stats/streaming_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>

#include "sketch_test_data.hpp"

namespace kerntime::stats {
namespace {

using testing::duration_shapes;
using testing::sketch_error_bound;
using testing::tested_quantiles;

StreamingSummary summary_of(const std::vector<double>& values) {
  StreamingSummary summary;
  for (double value : values)
    summary.add(value);
  return summary;
}

TEST(StreamingSummary, MatchesExactStatistics) {
  StatisticsOptions options;
  options.median_interval = false;
  for (const auto& shape : duration_shapes(1000000)) {
    SCOPED_TRACE(shape.name);
    const StreamingSummary summary = summary_of(shape.values);
    const Statistics exact = compute_statistics(shape.values, options);
    EXPECT_EQ(summary.count(), exact.count);
    EXPECT_EQ(summary.min(), exact.min);
    EXPECT_EQ(summary.max(), exact.max);
    EXPECT_NEAR(summary.mean(), exact.mean, 1e-12 * exact.mean);
    EXPECT_NEAR(summary.quantile(0.5), exact.median, sketch_error_bound(exact.median, 0.005));
    EXPECT_NEAR(summary.quantile(0.25), exact.q1, sketch_error_bound(exact.q1, 0.005));
    EXPECT_NEAR(summary.quantile(0.75), exact.q3, sketch_error_bound(exact.q3, 0.005));
    EXPECT_NEAR(summary.quantile(0.95), exact.p95, sketch_error_bound(exact.p95, 0.005));
    EXPECT_NEAR(summary.quantile(0.99), exact.p99, sketch_error_bound(exact.p99, 0.005));
    std::vector<double> sorted = shape.values;
    std::sort(sorted.begin(), sorted.end());
    for (const double q : tested_quantiles()) {
      const double exact_q = quantile_sorted(sorted, q);
      EXPECT_NEAR(summary.quantile(q), exact_q, sketch_error_bound(exact_q, 0.005)) << "q " << q;
    }
    // The ends are the exact minimum and maximum, not bucket answers.
    EXPECT_EQ(summary.quantile(0.0), exact.min);
    EXPECT_EQ(summary.quantile(1.0), exact.max);
  }
}

TEST(StreamingSummary, SumOfWholeNanosecondsIsExact) {
  const std::vector<double> values = duration_shapes(1000000)[5].values;  // integer ns
  std::uint64_t exact = 0;
  for (double value : values)
    exact += static_cast<std::uint64_t>(value);
  EXPECT_EQ(summary_of(values).sum(), static_cast<double>(exact));
}

TEST(StreamingSummary, CompensatedSumOfTenMillionTenths) {
  // The exact sum of 1e7 copies of the double nearest 0.1 is 1e6 + 5.6e-11, which rounds to
  // 1e6; a plain double sum ends 1.6e-4 away (1.6e-10 relative).
  StreamingSummary summary;
  double plain = 0.0;
  for (int i = 0; i < 10000000; ++i) {
    summary.add(0.1);
    plain += 0.1;
  }
  EXPECT_EQ(summary.sum(), 1e6);
  EXPECT_GT(std::fabs(plain - 1e6), 1e-5);  // the failure the compensation prevents
  EXPECT_EQ(summary.mean(), 0.1);
  // add(value, count) is exact too: value * count plus the product's rounding error.
  StreamingSummary weighted;
  weighted.add(0.1, 10000000);
  EXPECT_EQ(weighted.sum(), 1e6);
  EXPECT_EQ(weighted.count(), 10000000u);
}

TEST(StreamingSummary, MergedPartsEqualTheSummaryOfTheUnion) {
  const std::vector<double> values = duration_shapes(100000)[0].values;
  const StreamingSummary whole = summary_of(values);
  StreamingSummary merged;
  merged.merge(StreamingSummary());
  for (std::size_t start = 0; start < values.size(); start += 30000) {
    merged.merge(summary_of(
        {values.begin() + start, values.begin() + std::min(start + 30000, values.size())}));
  }
  EXPECT_EQ(merged.count(), whole.count());
  EXPECT_EQ(merged.min(), whole.min());
  EXPECT_EQ(merged.max(), whole.max());
  EXPECT_NEAR(merged.sum(), whole.sum(), 1e-15 * whole.sum());
  EXPECT_EQ(merged.sketch().to_data().counts, whole.sketch().to_data().counts);
  EXPECT_EQ(merged.quantile(0.5), whole.quantile(0.5));
}

TEST(StreamingSummary, SerializationRoundTrip) {
  const StreamingSummary summary = summary_of(duration_shapes(10000)[3].values);
  const StreamingSummary restored = StreamingSummary::from_data(summary.to_data());
  EXPECT_EQ(restored.count(), summary.count());
  EXPECT_EQ(restored.sum(), summary.sum());
  EXPECT_EQ(restored.min(), summary.min());
  EXPECT_EQ(restored.max(), summary.max());
  EXPECT_EQ(restored.quantile(0.99), summary.quantile(0.99));
  EXPECT_EQ(StreamingSummary::from_data(StreamingSummary().to_data()).count(), 0u);

  StreamingSummaryData miscounted = summary.to_data();
  miscounted.count += 1;
  EXPECT_THROW(StreamingSummary::from_data(miscounted), Error);
  StreamingSummaryData inverted = summary.to_data();
  std::swap(inverted.min, inverted.max);
  EXPECT_THROW(StreamingSummary::from_data(inverted), Error);
  StreamingSummaryData infinite = summary.to_data();
  infinite.sum = std::numeric_limits<double>::infinity();
  EXPECT_THROW(StreamingSummary::from_data(infinite), Error);
}

TEST(StreamingSummary, Errors) {
  StreamingSummary summary;
  EXPECT_THROW(summary.min(), Error);
  EXPECT_THROW(summary.max(), Error);
  EXPECT_THROW(summary.mean(), Error);
  EXPECT_THROW(summary.quantile(0.5), Error);
  EXPECT_THROW(summary.add(-3.0), Error);
  EXPECT_EQ(summary.count(), 0u);
  summary.add(3.0);
  EXPECT_THROW(summary.quantile(2.0), Error);
  EXPECT_THROW(summary.merge(StreamingSummary(0.01)), Error);
  EXPECT_EQ(summary.count(), 1u);
  EXPECT_EQ(summary.quantile(0.5), 3.0);  // one value: min = max = the value itself
}

TEST(StreamingSummary, TenMillionKernelsInBoundedMemory) {
  // 10,000,000 launches of 1,000 kernel names, each log-normal around its own median (1 us to
  // 10 ms). Memory depends on the names and the spread of each, not on the launches.
  constexpr std::size_t kNames = 1000;
  constexpr std::size_t kLaunches = 10000000;
  std::mt19937_64 random(42);
  std::vector<StreamingSummary> summaries(kNames);
  std::vector<double> medians(kNames);
  for (std::size_t name = 0; name < kNames; ++name)
    medians[name] = 1000.0 * std::pow(10.0, 4.0 * static_cast<double>(name) / kNames);
  // The exact samples of every 20th name, to check its median.
  std::vector<std::vector<double>> kept(kNames / 20);
  std::normal_distribution<double> spread(0.0, 0.5);
  for (std::size_t launch = 0; launch < kLaunches; ++launch) {
    const std::size_t name = launch % kNames;
    const double duration = std::round(medians[name] * std::exp(spread(random)));
    summaries[name].add(duration);
    if (name % 20 == 0) kept[name / 20].push_back(duration);
  }
  std::uint64_t launches = 0;
  std::size_t bytes = 0;
  for (const auto& summary : summaries) {
    launches += summary.count();
    bytes += summary.memory_bytes();
  }
  EXPECT_EQ(launches, kLaunches);
  EXPECT_LT(bytes, std::size_t{256} << 20);
  // About 1.5 KiB a name here; the cap bounds any name at 4,096 buckets (32 KiB).
  EXPECT_LT(bytes / kNames, std::size_t{4} << 10) << bytes << " bytes for " << kNames << " names";
  for (std::size_t k = 0; k < kept.size(); ++k) {
    std::sort(kept[k].begin(), kept[k].end());
    const double exact = quantile_sorted(kept[k], 0.5);
    ASSERT_NEAR(summaries[k * 20].quantile(0.5), exact, 0.01 * exact) << "name " << k * 20;
    ASSERT_NEAR(summaries[k * 20].quantile(0.5), exact, sketch_error_bound(exact, 0.005));
  }
}

}  // namespace
}  // namespace kerntime::stats
