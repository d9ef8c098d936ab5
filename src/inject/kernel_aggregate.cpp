// SPDX-License-Identifier: Apache-2.0
#include "inject/kernel_aggregate.hpp"

#include <algorithm>
#include <cmath>

#include <kerntime/statistics.hpp>

#include "stats/splitmix64.hpp"

namespace kerntime::inject {

DurationAggregate::DurationAggregate(std::size_t capacity, std::uint64_t seed)
    : capacity_(capacity), state_(seed) {}

// splitmix64: fast, good enough for choosing reservoir slots, and fully determined by the seed.
std::uint64_t DurationAggregate::next_random() {
  return stats::splitmix64_next(state_);
}

void DurationAggregate::add(double duration_ns) {
  summary_.add(duration_ns);
  const std::uint64_t count = summary_.count();
  const double delta = duration_ns - mean_;
  mean_ += delta / static_cast<double>(count);
  m2_ += delta * (duration_ns - mean_);
  if (kept_.size() < capacity_) {
    kept_.push_back(duration_ns);
    return;
  }
  if (capacity_ == 0) return;
  const std::uint64_t slot = next_random() % count;
  if (slot < capacity_) kept_[slot] = duration_ns;
}

double DurationAggregate::median_ns() const {
  if (summary_.empty()) return 0.0;
  if (!complete()) return summary_.quantile(0.5);
  return median(kept_);
}

double DurationAggregate::stddev_ns() const {
  const std::uint64_t count = summary_.count();
  return count < 2 ? 0.0 : std::sqrt(m2_ / static_cast<double>(count - 1));
}

}  // namespace kerntime::inject
