// SPDX-License-Identifier: Apache-2.0
// QuantileSketch against exact quantiles (kerntime::quantile_sorted) on a million seeded values
// of several shapes, its rank rule, lossless merging and serialization, and its errors.
#include "stats/quantile_sketch.hpp"

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

QuantileSketch sketch_of(const std::vector<double>& values, double alpha = 0.005,
                         std::uint32_t max_buckets = QuantileSketch::kDefaultMaxBuckets) {
  QuantileSketch sketch(alpha, max_buckets);
  for (double value : values)
    sketch.add(value);
  return sketch;
}

void expect_same_data(const QuantileSketchData& actual, const QuantileSketchData& expected) {
  EXPECT_EQ(actual.relative_accuracy, expected.relative_accuracy);
  EXPECT_EQ(actual.max_buckets, expected.max_buckets);
  EXPECT_EQ(actual.first_index, expected.first_index);
  EXPECT_EQ(actual.counts, expected.counts);
  EXPECT_EQ(actual.zero_count, expected.zero_count);
  EXPECT_EQ(actual.collapsed, expected.collapsed);
}

TEST(QuantileSketch, EveryQuantileWithinRelativeAccuracyOfTheExactOne) {
  for (const double alpha : {0.005, 0.01}) {
    for (const auto& shape : duration_shapes(1000000)) {
      SCOPED_TRACE(shape.name + ", alpha " + std::to_string(alpha));
      const QuantileSketch sketch = sketch_of(shape.values, alpha);
      ASSERT_EQ(sketch.count(), shape.values.size());
      EXPECT_FALSE(sketch.collapsed());
      std::vector<double> sorted = shape.values;
      std::sort(sorted.begin(), sorted.end());
      for (const double q : tested_quantiles()) {
        const double exact = quantile_sorted(sorted, q);
        EXPECT_NEAR(sketch.quantile(q), exact, sketch_error_bound(exact, alpha)) << "q = " << q;
      }
    }
  }
}

TEST(QuantileSketch, EveryRankWithinRelativeAccuracy) {
  // Every order statistic of a wide sample, not only the tested quantiles.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> log_span(0.0, std::log(1e12));
  std::vector<double> values(20000);
  for (double& value : values)
    value = std::exp(log_span(random));
  const QuantileSketch sketch = sketch_of(values);
  std::sort(values.begin(), values.end());
  for (std::uint64_t rank = 0; rank < values.size(); ++rank) {
    ASSERT_NEAR(sketch.value_at_rank(rank), values[rank], sketch_error_bound(values[rank], 0.005))
        << "rank " << rank;
  }
}

TEST(QuantileSketch, RankRuleIsTypeSevenLikeQuantileSorted) {
  const std::vector<double> values = {40.0, 10.0, 30.0, 20.0};
  const QuantileSketch sketch = sketch_of(values);
  // Even n: the median is the mean of the estimates of the two middle values (20 and 30), so
  // within alpha of the exact 25 although no sample is 25.
  EXPECT_EQ(sketch.quantile(0.5), 0.5 * (sketch.value_at_rank(1) + sketch.value_at_rank(2)));
  EXPECT_NEAR(sketch.quantile(0.5), 25.0, sketch_error_bound(25.0, 0.005));
  // h = q (n - 1): q = 1/3 is rank 1 exactly, q = 0.25 is 3/4 of the way from 10 to 20.
  EXPECT_EQ(sketch.quantile(1.0 / 3.0), sketch.value_at_rank(1));
  const double lerp =
      sketch.value_at_rank(0) + 0.75 * (sketch.value_at_rank(1) - sketch.value_at_rank(0));
  EXPECT_DOUBLE_EQ(sketch.quantile(0.25), lerp);
  EXPECT_NEAR(sketch.quantile(0.25), 17.5, sketch_error_bound(17.5, 0.005));
  EXPECT_EQ(sketch.quantile(0.0), sketch.value_at_rank(0));
  EXPECT_EQ(sketch.quantile(1.0), sketch.value_at_rank(3));
  // Two values far apart: the interpolated median is still within alpha of their mean.
  const QuantileSketch pair = sketch_of({10.0, 1000.0});
  EXPECT_NEAR(pair.quantile(0.5), 505.0, sketch_error_bound(505.0, 0.005));
}

TEST(QuantileSketch, ZeroAndTinyValuesAnswerZero) {
  QuantileSketch sketch;
  sketch.add(0.0, 3);
  sketch.add(-0.0);
  sketch.add(1e-7);
  sketch.add(1000.0);
  EXPECT_EQ(sketch.count(), 6u);
  EXPECT_EQ(sketch.to_data().zero_count, 5u);
  EXPECT_EQ(sketch.quantile(0.5), 0.0);
  EXPECT_EQ(sketch.value_at_rank(4), 0.0);
  EXPECT_NEAR(sketch.value_at_rank(5), 1000.0, sketch_error_bound(1000.0, 0.005));
  // The smallest indexable value has its own bucket.
  QuantileSketch tiny;
  tiny.add(QuantileSketch::kMinIndexableValue);
  EXPECT_NEAR(tiny.quantile(0.5), 1e-6, sketch_error_bound(1e-6, 0.005));
}

TEST(QuantileSketch, AddWithCountEqualsRepeatedAdds) {
  QuantileSketch repeated;
  QuantileSketch weighted;
  for (int i = 0; i < 1000; ++i)
    repeated.add(123.0);
  repeated.add(5.0);
  weighted.add(123.0, 1000);
  weighted.add(5.0, 1);
  weighted.add(7.0, 0);  // adds nothing
  expect_same_data(weighted.to_data(), repeated.to_data());
  EXPECT_EQ(weighted.count(), 1001u);
}

TEST(QuantileSketch, MergedPartsEqualTheSketchOfTheUnion) {
  for (const auto& shape : duration_shapes(200000)) {
    SCOPED_TRACE(shape.name);
    const QuantileSketch whole = sketch_of(shape.values);
    // Seven parts of unequal sizes, the way threads or processes see a program's kernels.
    const std::vector<std::size_t> cuts = {0, 1, 1000, 50000, 50001, 120000, 199999, 200000};
    QuantileSketch merged;
    for (std::size_t part = 0; part + 1 < cuts.size(); ++part) {
      const std::vector<double> slice(shape.values.begin() + cuts[part],
                                      shape.values.begin() + cuts[part + 1]);
      merged.merge(sketch_of(slice));
    }
    merged.merge(QuantileSketch());  // an empty part changes nothing
    expect_same_data(merged.to_data(), whole.to_data());
    EXPECT_EQ(merged.quantile(0.5), whole.quantile(0.5));
  }
}

TEST(QuantileSketch, CollapseIsOrderIndependentAndMergesExactly) {
  // 64 buckets at alpha 0.01 span only 1.3 decades: 1 ns..1 s must collapse the lowest buckets.
  std::vector<double> values = duration_shapes(20000)[4].values;
  const QuantileSketch forward = sketch_of(values, 0.01, 64);
  EXPECT_TRUE(forward.collapsed());
  const QuantileSketchData data = forward.to_data();
  EXPECT_EQ(data.counts.size(), 64u);
  EXPECT_LE(forward.memory_bytes(), sizeof(QuantileSketch) + 64 * sizeof(std::uint64_t));
  std::sort(values.begin(), values.end());
  expect_same_data(sketch_of(values, 0.01, 64).to_data(), data);
  std::reverse(values.begin(), values.end());
  expect_same_data(sketch_of(values, 0.01, 64).to_data(), data);
  QuantileSketch merged(0.01, 64);
  for (std::size_t start = 0; start < values.size(); start += 3000) {
    const std::vector<double> slice(values.begin() + start,
                                    values.begin() + std::min(start + 3000, values.size()));
    merged.merge(sketch_of(slice, 0.01, 64));
  }
  expect_same_data(merged.to_data(), data);
  // Ranks above the collapsed bucket keep the bound: the top 1.3 decades are exact buckets.
  std::sort(values.begin(), values.end());
  const double p99 = quantile_sorted(values, 0.99);
  EXPECT_NEAR(forward.quantile(0.99), p99, sketch_error_bound(p99, 0.01));
}

TEST(QuantileSketch, MemoryStaysBoundedOverTwelveDecades) {
  // 1 ns to 1e12 ns at alpha 0.005 is buckets 0 to ceil(ln 1e12 / ln gamma) = 2764: 2,765
  // buckets, dense, under the cap, 22 KiB (plus at most 64 buckets of growth headroom).
  QuantileSketch sketch;
  for (double value = 1.0; value < 1e12; value *= 1.001)
    sketch.add(value);
  sketch.add(1e12);
  EXPECT_FALSE(sketch.collapsed());
  EXPECT_EQ(sketch.to_data().first_index, 0);
  EXPECT_EQ(sketch.to_data().counts.size(), 2765u);
  EXPECT_LE(sketch.memory_bytes(), sizeof(QuantileSketch) + (2765 + 64) * 8);
}

TEST(QuantileSketch, SerializationRoundTrip) {
  for (const auto& shape : duration_shapes(100000)) {
    SCOPED_TRACE(shape.name);
    const QuantileSketch sketch = sketch_of(shape.values);
    const QuantileSketch restored = QuantileSketch::from_data(sketch.to_data());
    expect_same_data(restored.to_data(), sketch.to_data());
    EXPECT_EQ(restored.count(), sketch.count());
    for (const double q : tested_quantiles())
      EXPECT_EQ(restored.quantile(q), sketch.quantile(q)) << "q = " << q;
    // A restored sketch merges like the original.
    QuantileSketch merged = restored;
    merged.merge(sketch);
    EXPECT_EQ(merged.count(), 2 * sketch.count());
  }
  // Leading and trailing zero buckets are trimmed; the empty sketch round-trips too.
  QuantileSketchData padded = sketch_of({100.0, 200.0}).to_data();
  padded.counts.insert(padded.counts.begin(), 0);
  padded.counts.push_back(0);
  padded.first_index -= 1;
  expect_same_data(QuantileSketch::from_data(padded).to_data(),
                   sketch_of({100.0, 200.0}).to_data());
  EXPECT_EQ(QuantileSketch::from_data(QuantileSketch().to_data()).count(), 0u);
}

TEST(QuantileSketch, ErrorsNameWhatIsWrong) {
  QuantileSketch sketch;
  EXPECT_THROW(sketch.quantile(0.5), Error);
  EXPECT_THROW(sketch.value_at_rank(0), Error);
  EXPECT_THROW(sketch.add(-1.0), Error);
  EXPECT_THROW(sketch.add(std::numeric_limits<double>::quiet_NaN()), Error);
  EXPECT_THROW(sketch.add(std::numeric_limits<double>::infinity()), Error);
  EXPECT_EQ(sketch.count(), 0u);  // nothing was counted by the rejected adds
  sketch.add(5.0);
  EXPECT_THROW(sketch.quantile(-0.1), Error);
  EXPECT_THROW(sketch.quantile(1.1), Error);
  EXPECT_THROW(sketch.quantile(std::numeric_limits<double>::quiet_NaN()), Error);
  EXPECT_THROW(sketch.value_at_rank(1), Error);
  EXPECT_THROW(sketch.add(1.0, std::numeric_limits<std::uint64_t>::max()), Error);
  EXPECT_EQ(sketch.count(), 1u);
  try {
    sketch.merge(QuantileSketch(0.01));
    FAIL() << "merging sketches of different accuracy must throw";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("same settings"), std::string::npos) << error.what();
  }
  EXPECT_THROW(sketch.merge(QuantileSketch(0.005, 1024)), Error);
  EXPECT_THROW(QuantileSketch(0.0), Error);
  EXPECT_THROW(QuantileSketch(0.6), Error);
  EXPECT_THROW(QuantileSketch(std::numeric_limits<double>::quiet_NaN()), Error);
  EXPECT_THROW(QuantileSketch(0.005, 8), Error);

  QuantileSketchData too_many = sketch.to_data();
  too_many.counts.assign(5000, 1);
  EXPECT_THROW(QuantileSketch::from_data(too_many), Error);
  QuantileSketchData out_of_range = sketch.to_data();
  out_of_range.first_index = 1000000;
  EXPECT_THROW(QuantileSketch::from_data(out_of_range), Error);
  QuantileSketchData bad_accuracy = sketch.to_data();
  bad_accuracy.relative_accuracy = -1.0;
  EXPECT_THROW(QuantileSketch::from_data(bad_accuracy), Error);
  QuantileSketchData overflowing = sketch.to_data();
  overflowing.zero_count = std::numeric_limits<std::uint64_t>::max();
  EXPECT_THROW(QuantileSketch::from_data(overflowing), Error);
}

TEST(QuantileSketch, MergeIntoItselfDoublesTheCounts) {
  QuantileSketch sketch = sketch_of({1.0, 10.0, 100.0});
  sketch.merge(sketch);
  EXPECT_EQ(sketch.count(), 6u);
  EXPECT_EQ(sketch.to_data().counts.front(), 2u);
}

}  // namespace
}  // namespace kerntime::stats
