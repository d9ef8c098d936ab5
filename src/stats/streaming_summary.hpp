// SPDX-License-Identifier: Apache-2.0
// The statistics of one kernel's durations in bounded memory, however many launches there are:
// exact count, sum, min and max, and quantiles from a QuantileSketch. This is what
// `kerntime run` keeps per kernel name instead of the durations themselves.
//
// Not thread-safe: the caller keeps one summary per thread and merges them, or holds a lock.
#pragma once

#include <cstddef>
#include <cstdint>

#include "stats/quantile_sketch.hpp"

namespace kerntime::stats {

/// A summary as plain data, for writing it into a file and merging it later.
struct StreamingSummaryData {
  std::uint64_t count = 0;
  double sum = 0.0;               ///< the running sum; the sum is sum + sum_compensation
  double sum_compensation = 0.0;  ///< the rounding errors the running sum has not absorbed
  double min = 0.0;               ///< meaningless when count == 0
  double max = 0.0;
  QuantileSketchData sketch;
};

class StreamingSummary {
 public:
  /// The sketch's settings; see QuantileSketch (kerntime::Error when out of range).
  explicit StreamingSummary(double relative_accuracy = QuantileSketch::kDefaultRelativeAccuracy,
                            std::uint32_t max_buckets = QuantileSketch::kDefaultMaxBuckets);

  /// Adds a duration `count` times; kerntime::Error for a negative, NaN or infinite value.
  void add(double value) { add(value, 1); }
  void add(double value, std::uint64_t count);
  /// Adds every value of `other`; kerntime::Error when the sketch settings differ.
  void merge(const StreamingSummary& other);

  std::uint64_t count() const { return sketch_.count(); }
  bool empty() const { return sketch_.empty(); }
  /// The sum of the values, compensated (Neumaier) so that 1e8 additions lose no more than a
  /// few units in the last place, where a plain double sum drifts by about 1e-10 relative.
  double sum() const { return sum_ + compensation_; }
  /// min(), max() and mean() throw kerntime::Error when empty.
  double min() const;
  double max() const;
  double mean() const;
  /// The type 7 quantile (as kerntime::quantile_sorted) within the sketch's relative accuracy;
  /// exact at q = 0 and q = 1, and the estimates are clamped to [min, max], which can only move
  /// them closer to the exact value. kerntime::Error when empty or q is outside [0, 1].
  double quantile(double q) const;
  const QuantileSketch& sketch() const { return sketch_; }
  /// Bytes held by the summary and its sketch.
  std::size_t memory_bytes() const {
    return sizeof(*this) - sizeof(sketch_) + sketch_.memory_bytes();
  }

  StreamingSummaryData to_data() const;
  /// Validates `data` (count agrees with the sketch, finite values, 0 <= min <= max); throws
  /// kerntime::Error naming what is wrong.
  static StreamingSummary from_data(const StreamingSummaryData& data);

 private:
  void add_to_sum(double value);

  QuantileSketch sketch_;
  double sum_ = 0.0;
  double compensation_ = 0.0;
  double min_ = 0.0;
  double max_ = 0.0;
};

}  // namespace kerntime::stats
