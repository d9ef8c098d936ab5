// SPDX-License-Identifier: Apache-2.0
// A relative-error quantile sketch in the style of DDSketch (Masson, Rim and Lee, VLDB 2019): the
// quantiles of hundreds of millions of kernel durations in a few KiB per kernel name, mergeable
// across threads and processes with no loss.
//
// Buckets. A value x > 0 goes to bucket i = ceil(log_gamma(x)) with gamma = (1 + a) / (1 - a),
// a the relative accuracy; bucket i holds (gamma^(i-1), gamma^i] and answers with
// 2 gamma^i / (gamma + 1), which is within a relative error a of every value in the bucket.
// Counts are exact, so the bucket that holds the r-th smallest value is known exactly and
// value_at_rank(r) is within a of the r-th order statistic. Values in [0, kMinIndexableValue)
// go to a zero bucket and answer 0 (an absolute error below 1e-6 ns).
//
// Memory. The store is dense over the occupied index range: one uint64 per bucket between the
// lowest and the highest occupied bucket (plus growth headroom). At a = 0.005 one decade of
// durations is 231 buckets (1.8 KiB); 1 ns to 1e12 ns is 2,765 buckets (22 KiB). The range is
// capped at max_buckets (default 4,096 = 32 KiB, 17.8 decades): a value that would widen it
// further makes the lowest buckets collapse into one, so the bound then holds only for ranks
// above that bucket (collapsed() says so). The result is a function of the values alone, not
// of their order: merging partial sketches gives the sketch of the union, bucket for bucket.
//
// Not thread-safe: one sketch per thread, merged afterwards, or a lock held by the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kerntime::stats {

/// A sketch as plain data, for writing per-process sketches into a file and merging them later.
/// `counts[k]` is the count of bucket `first_index + k`.
struct QuantileSketchData {
  double relative_accuracy = 0.0;
  std::uint32_t max_buckets = 0;
  std::int32_t first_index = 0;
  std::vector<std::uint64_t> counts;
  std::uint64_t zero_count = 0;
  bool collapsed = false;
};

class QuantileSketch {
 public:
  static constexpr double kDefaultRelativeAccuracy = 0.005;
  static constexpr std::uint32_t kDefaultMaxBuckets = 4096;
  /// Smaller values (and 0) are counted in the zero bucket and answer 0.
  static constexpr double kMinIndexableValue = 1e-6;

  /// relative_accuracy in [1e-6, 0.5], max_buckets in [16, 1 << 20]; else kerntime::Error.
  explicit QuantileSketch(double relative_accuracy = kDefaultRelativeAccuracy,
                          std::uint32_t max_buckets = kDefaultMaxBuckets);

  /// Adds a value `count` times. Throws kerntime::Error for a negative, NaN or infinite value,
  /// or when the total count would overflow 64 bits.
  void add(double value) { add(value, 1); }
  void add(double value, std::uint64_t count);

  /// Adds every value of `other`. Throws kerntime::Error unless both have the same relative
  /// accuracy and bucket cap (the buckets would not line up).
  void merge(const QuantileSketch& other);

  std::uint64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  double relative_accuracy() const { return relative_accuracy_; }
  std::uint32_t max_buckets() const { return max_buckets_; }
  /// True once the lowest buckets were merged to respect max_buckets.
  bool collapsed() const { return collapsed_; }
  /// Bytes held: the object and its bucket store.
  std::size_t memory_bytes() const;

  /// An estimate of the rank-th smallest value (0-based), within relative_accuracy() of it.
  /// Throws kerntime::Error when rank >= count().
  double value_at_rank(std::uint64_t rank) const;

  /// The q-quantile by the rule of kerntime::quantile_sorted (Hyndman and Fan type 7):
  /// h = q (n - 1), interpolating between the estimates of ranks floor(h) and floor(h) + 1.
  /// Both estimates are within relative_accuracy() of their order statistics, and a weighted
  /// mean of the two keeps that bound, so the result is within relative_accuracy() of the exact
  /// type 7 quantile; for even n the median is the mean of the two middle estimates.
  /// Throws kerntime::Error when empty or when q is outside [0, 1].
  double quantile(double q) const;

  /// The occupied buckets only (no headroom), so equal sketches give equal data.
  QuantileSketchData to_data() const;
  /// Validates `data` (accuracy, cap, index range, count overflow); throws kerntime::Error
  /// naming the field that is wrong.
  static QuantileSketch from_data(const QuantileSketchData& data);

 private:
  std::int32_t index_of(double value) const;
  double value_of(std::int32_t index) const;
  void add_to_index(std::int32_t index, std::uint64_t count);
  void ensure_range(std::int32_t low, std::int32_t high, bool growing_up);
  void add_count(std::uint64_t count);

  double relative_accuracy_;
  std::uint32_t max_buckets_;
  double gamma_;
  double inverse_log_gamma_;
  std::uint64_t count_ = 0;
  std::uint64_t zero_count_ = 0;
  // counts_[k] is bucket offset_ + k; [min_index_, max_index_] is the occupied range, valid
  // when counts_ is not empty.
  std::vector<std::uint64_t> counts_;
  std::int32_t offset_ = 0;
  std::int32_t min_index_ = 0;
  std::int32_t max_index_ = 0;
  bool collapsed_ = false;
};

}  // namespace kerntime::stats
