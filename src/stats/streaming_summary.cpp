// SPDX-License-Identifier: Apache-2.0
#include "stats/streaming_summary.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <kerntime/error.hpp>

namespace kerntime::stats {
namespace {

// NumPy's lerp, as kerntime::quantile_sorted interpolates: t == 1 returns exactly b.
double lerp(double a, double b, double t) {
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

}  // namespace

StreamingSummary::StreamingSummary(double relative_accuracy, std::uint32_t max_buckets)
    : sketch_(relative_accuracy, max_buckets) {}

void StreamingSummary::add_to_sum(double value) {
  // Neumaier's variant of Kahan summation: the rounding error of every addition is kept in
  // compensation_, whichever of the two operands is larger.
  const double total = sum_ + value;
  if (std::fabs(sum_) >= std::fabs(value)) {
    compensation_ += (sum_ - total) + value;
  } else {
    compensation_ += (value - total) + sum_;
  }
  sum_ = total;
}

void StreamingSummary::add(double value, std::uint64_t count) {
  sketch_.add(value, count);  // validates the value and the count first
  if (count == 0) return;
  const bool first = sketch_.count() == count;
  min_ = first ? value : std::min(min_, value);
  max_ = first ? value : std::max(max_, value);
  // value * count and the rounding error of that product, exact by the fused multiply-add.
  const double weight = static_cast<double>(count);
  const double product = value * weight;
  add_to_sum(product);
  add_to_sum(std::fma(value, weight, -product));
}

void StreamingSummary::merge(const StreamingSummary& other) {
  const bool was_empty = empty();
  sketch_.merge(other.sketch_);  // checks the settings first
  if (other.empty()) return;
  min_ = was_empty ? other.min_ : std::min(min_, other.min_);
  max_ = was_empty ? other.max_ : std::max(max_, other.max_);
  const double other_sum = other.sum_;
  const double other_compensation = other.compensation_;
  add_to_sum(other_sum);
  add_to_sum(other_compensation);
}

double StreamingSummary::min() const {
  if (empty()) throw Error("streaming summary: no values, so no minimum");
  return min_;
}

double StreamingSummary::max() const {
  if (empty()) throw Error("streaming summary: no values, so no maximum");
  return max_;
}

double StreamingSummary::mean() const {
  if (empty()) throw Error("streaming summary: no values, so no mean");
  return sum() / static_cast<double>(count());
}

double StreamingSummary::quantile(double q) const {
  if (empty()) throw Error("streaming summary: cannot take a quantile of no values");
  if (!(q >= 0.0 && q <= 1.0)) {
    // The sketch words the message for an out-of-range q.
    return sketch_.quantile(q);
  }
  const std::uint64_t n = count();
  // The order statistic of a rank, exact at the two ends.
  const auto at_rank = [&](std::uint64_t rank) {
    if (rank == 0) return min_;
    if (rank == n - 1) return max_;
    return std::clamp(sketch_.value_at_rank(rank), min_, max_);
  };
  const double h = static_cast<double>(n - 1) * q;
  const double floor_h = std::floor(h);
  const auto lower = static_cast<std::uint64_t>(floor_h);
  if (lower + 1 >= n) return max_;
  const double t = h - floor_h;
  if (t == 0.0) return at_rank(lower);
  return lerp(at_rank(lower), at_rank(lower + 1), t);
}

StreamingSummaryData StreamingSummary::to_data() const {
  StreamingSummaryData data;
  data.count = count();
  data.sum = sum_;
  data.sum_compensation = compensation_;
  data.min = min_;
  data.max = max_;
  data.sketch = sketch_.to_data();
  return data;
}

StreamingSummary StreamingSummary::from_data(const StreamingSummaryData& data) {
  StreamingSummary summary;
  summary.sketch_ = QuantileSketch::from_data(data.sketch);
  if (summary.sketch_.count() != data.count) {
    throw Error("streaming summary data: the count " + std::to_string(data.count) +
                " differs from the " + std::to_string(summary.sketch_.count()) +
                " values of its sketch; the data is corrupt");
  }
  if (!std::isfinite(data.sum) || !std::isfinite(data.sum_compensation) ||
      !std::isfinite(data.min) || !std::isfinite(data.max) ||
      (data.count > 0 && !(data.min >= 0.0 && data.min <= data.max))) {
    throw Error(
        "streaming summary data: the sum, minimum and maximum must be finite with "
        "0 <= minimum <= maximum; the data is corrupt");
  }
  summary.sum_ = data.sum;
  summary.compensation_ = data.sum_compensation;
  summary.min_ = data.min;
  summary.max_ = data.max;
  return summary;
}

}  // namespace kerntime::stats
