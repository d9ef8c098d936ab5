// SPDX-License-Identifier: Apache-2.0
#include "stats/quantile_sketch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include <kerntime/error.hpp>

#include "stats/numeric.hpp"

namespace kerntime::stats {
namespace {

using stats::format_double;
using stats::lerp;

constexpr double kMinRelativeAccuracy = 1e-6;
constexpr double kMaxRelativeAccuracy = 0.5;
constexpr std::uint32_t kMinMaxBuckets = 16;
constexpr std::uint32_t kMaxMaxBuckets = 1u << 20;
// Buckets added beyond the needed range when the store grows (half the range, at least 8, at
// most 64), so that a range widening one bucket at a time does not copy the store every time,
// while a kernel seen once holds 9 buckets, not 65.
constexpr std::int64_t kMinGrowthHeadroom = 8;
constexpr std::int64_t kMaxGrowthHeadroom = 64;

}  // namespace

QuantileSketch::QuantileSketch(double relative_accuracy, std::uint32_t max_buckets)
    : relative_accuracy_(relative_accuracy), max_buckets_(max_buckets) {
  if (!(relative_accuracy >= kMinRelativeAccuracy && relative_accuracy <= kMaxRelativeAccuracy)) {
    throw Error("quantile sketch: the relative accuracy must be between 1e-6 and 0.5, got " +
                format_double(relative_accuracy));
  }
  if (max_buckets < kMinMaxBuckets || max_buckets > kMaxMaxBuckets) {
    throw Error("quantile sketch: the bucket cap must be between 16 and 1048576, got " +
                std::to_string(max_buckets));
  }
  gamma_ = (1.0 + relative_accuracy) / (1.0 - relative_accuracy);
  inverse_log_gamma_ = 1.0 / std::log(gamma_);
}

std::int32_t QuantileSketch::index_of(double value) const {
  // value is in [kMinIndexableValue, DBL_MAX]: |log| <= 710 and 1 / log(gamma) <= 5e5, so the
  // index fits an int32 with room to spare.
  return static_cast<std::int32_t>(std::ceil(std::log(value) * inverse_log_gamma_));
}

double QuantileSketch::value_of(std::int32_t index) const {
  // 2 gamma^i / (gamma + 1) = (1 - a) gamma^i, in logs so that the top bucket does not overflow
  // before the factor below 1 is applied.
  const double value =
      std::exp(static_cast<double>(index) / inverse_log_gamma_ + std::log1p(-relative_accuracy_));
  return std::min(value, std::numeric_limits<double>::max());
}

std::size_t QuantileSketch::memory_bytes() const {
  return sizeof(*this) + counts_.capacity() * sizeof(std::uint64_t);
}

void QuantileSketch::add_count(std::uint64_t count) {
  if (count > std::numeric_limits<std::uint64_t>::max() - count_) {
    throw Error(
        "quantile sketch: the total count would overflow 64 bits; keep one sketch per "
        "kernel and process and merge fewer of them");
  }
  count_ += count;
}

void QuantileSketch::add(double value, std::uint64_t count) {
  if (!(value >= 0.0) || std::isinf(value)) {
    throw Error("quantile sketch: a duration must be finite and not negative, got " +
                format_double(value));
  }
  if (count == 0) return;
  add_count(count);
  if (value < kMinIndexableValue) {
    zero_count_ += count;
    return;
  }
  add_to_index(index_of(value), count);
}

void QuantileSketch::ensure_range(std::int32_t low, std::int32_t high, bool growing_up) {
  const std::int64_t stored_high = offset_ + static_cast<std::int64_t>(counts_.size()) - 1;
  if (!counts_.empty() && low >= offset_ && high <= stored_high) return;
  // Room in the direction of growth, as far as the cap allows; the caller keeps
  // high - low + 1 <= max_buckets_.
  const std::int64_t needed = static_cast<std::int64_t>(high) - low + 1;
  const std::int64_t headroom = std::min<std::int64_t>(
      std::clamp(needed / 2, kMinGrowthHeadroom, kMaxGrowthHeadroom), max_buckets_ - needed);
  std::int64_t new_low = low;
  std::int64_t new_high = high;
  if (growing_up) {
    new_high += headroom;
  } else {
    new_low -= headroom;
  }
  std::vector<std::uint64_t> grown(static_cast<std::size_t>(new_high - new_low + 1), 0);
  // Only the occupied part of the old store holds counts, and it lies inside [low, high].
  if (!counts_.empty()) {
    const std::int64_t from = std::max<std::int64_t>(min_index_, offset_);
    const std::int64_t to = std::min<std::int64_t>(max_index_, stored_high);
    for (std::int64_t i = from; i <= to; ++i) {
      grown[static_cast<std::size_t>(i - new_low)] = counts_[static_cast<std::size_t>(i - offset_)];
    }
  }
  counts_ = std::move(grown);
  offset_ = static_cast<std::int32_t>(new_low);
}

void QuantileSketch::add_to_index(std::int32_t index, std::uint64_t count) {
  if (counts_.empty()) {
    ensure_range(index, index, true);
    min_index_ = max_index_ = index;
  } else if (index > max_index_) {
    // The new top bucket fixes the lowest bucket allowed: fold everything below it into it.
    const std::int64_t floor = static_cast<std::int64_t>(index) - max_buckets_ + 1;
    if (floor > min_index_) {
      std::uint64_t folded = 0;
      const std::int64_t fold_to = std::min<std::int64_t>(floor - 1, max_index_);
      for (std::int64_t i = min_index_; i <= fold_to; ++i) {
        std::uint64_t& bucket = counts_[static_cast<std::size_t>(i - offset_)];
        folded += bucket;
        bucket = 0;
      }
      min_index_ = static_cast<std::int32_t>(floor);
      max_index_ = std::max(max_index_, min_index_);
      ensure_range(min_index_, index, true);
      counts_[static_cast<std::size_t>(min_index_ - offset_)] += folded;
      collapsed_ = true;
    } else {
      ensure_range(min_index_, index, true);
    }
    max_index_ = index;
  } else if (index < min_index_) {
    const std::int64_t floor = static_cast<std::int64_t>(max_index_) - max_buckets_ + 1;
    if (index < floor) {
      index = static_cast<std::int32_t>(floor);
      collapsed_ = true;
    }
    if (index < min_index_) {
      ensure_range(index, max_index_, false);
      min_index_ = index;
    }
  }
  counts_[static_cast<std::size_t>(index - offset_)] += count;
}

void QuantileSketch::merge(const QuantileSketch& other) {
  if (other.relative_accuracy_ != relative_accuracy_ || other.max_buckets_ != max_buckets_) {
    throw Error("quantile sketch: cannot merge a sketch of relative accuracy " +
                format_double(other.relative_accuracy_) + " and " +
                std::to_string(other.max_buckets_) + " buckets into one of " +
                format_double(relative_accuracy_) + " and " + std::to_string(max_buckets_) +
                " buckets; sketches that are merged must be created with the same settings");
  }
  if (&other == this) {
    const QuantileSketch copy = other;
    merge(copy);
    return;
  }
  if (other.empty()) return;
  add_count(other.count_);
  zero_count_ += other.zero_count_;
  // From the top down: the first bucket settles the floor, so at most one fold happens.
  if (!other.counts_.empty()) {
    for (std::int32_t i = other.max_index_; i >= other.min_index_; --i) {
      const std::uint64_t bucket = other.counts_[static_cast<std::size_t>(i - other.offset_)];
      if (bucket != 0) add_to_index(i, bucket);
    }
  }
  collapsed_ = collapsed_ || other.collapsed_;
}

double QuantileSketch::value_at_rank(std::uint64_t rank) const {
  if (rank >= count_) {
    throw Error("quantile sketch: rank " + std::to_string(rank) + " is outside a sketch of " +
                std::to_string(count_) + " values");
  }
  if (rank < zero_count_) return 0.0;
  std::uint64_t remaining = rank - zero_count_;
  for (std::int32_t i = min_index_; i <= max_index_; ++i) {
    const std::uint64_t bucket = counts_[static_cast<std::size_t>(i - offset_)];
    if (remaining < bucket) return value_of(i);
    remaining -= bucket;
  }
  return value_of(max_index_);  // not reached: the buckets hold count_ - zero_count_ values
}

double QuantileSketch::quantile(double q) const {
  if (empty()) throw Error("quantile sketch: cannot take a quantile of no values");
  if (!(q >= 0.0 && q <= 1.0)) {
    throw Error("quantile sketch: quantile must be between 0 and 1, got " + format_double(q));
  }
  const double h = static_cast<double>(count_ - 1) * q;
  const double floor_h = std::floor(h);
  const auto lower = static_cast<std::uint64_t>(floor_h);
  if (lower + 1 >= count_) return value_at_rank(count_ - 1);
  const double t = h - floor_h;
  if (t == 0.0) return value_at_rank(lower);
  return lerp(value_at_rank(lower), value_at_rank(lower + 1), t);
}

QuantileSketchData QuantileSketch::to_data() const {
  QuantileSketchData data;
  data.relative_accuracy = relative_accuracy_;
  data.max_buckets = max_buckets_;
  data.zero_count = zero_count_;
  data.collapsed = collapsed_;
  if (counts_.empty()) return data;
  std::int32_t low = min_index_;
  std::int32_t high = max_index_;
  while (low < high && counts_[static_cast<std::size_t>(low - offset_)] == 0)
    ++low;
  while (high > low && counts_[static_cast<std::size_t>(high - offset_)] == 0)
    --high;
  data.first_index = low;
  data.counts.assign(counts_.begin() + (low - offset_), counts_.begin() + (high - offset_) + 1);
  return data;
}

QuantileSketch QuantileSketch::from_data(const QuantileSketchData& data) {
  QuantileSketch sketch(data.relative_accuracy, data.max_buckets);
  if (data.counts.size() > data.max_buckets) {
    throw Error("quantile sketch data: " + std::to_string(data.counts.size()) +
                " bucket counts exceed the cap of " + std::to_string(data.max_buckets) +
                " buckets; the data is corrupt");
  }
  sketch.add_count(data.zero_count);
  sketch.zero_count_ = data.zero_count;
  sketch.collapsed_ = data.collapsed;
  const auto first = std::find_if(data.counts.begin(), data.counts.end(),
                                  [](std::uint64_t bucket) { return bucket != 0; });
  if (first == data.counts.end()) return sketch;
  const auto last =
      std::find_if(data.counts.rbegin(), data.counts.rend(), [](std::uint64_t bucket) {
        return bucket != 0;
      }).base();
  const std::int64_t low = data.first_index + (first - data.counts.begin());
  const std::int64_t high = data.first_index + (last - data.counts.begin()) - 1;
  if (low < sketch.index_of(kMinIndexableValue) ||
      high > sketch.index_of(std::numeric_limits<double>::max())) {
    throw Error("quantile sketch data: buckets " + std::to_string(low) + " to " +
                std::to_string(high) +
                " lie outside the range of finite durations; the data is corrupt");
  }
  for (auto it = first; it != last; ++it)
    sketch.add_count(*it);
  sketch.counts_.assign(first, last);
  sketch.offset_ = sketch.min_index_ = static_cast<std::int32_t>(low);
  sketch.max_index_ = static_cast<std::int32_t>(high);
  return sketch;
}

}  // namespace kerntime::stats
