// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stats/quantile_sketch.hpp"

namespace kerntime::inject {

/// Everything `kerntime run` keeps of one kernel name (or one NVTX range name) however often it
/// runs: exact count, total, minimum, maximum and variance; a quantile sketch whose median is
/// within 0.5 % of the exact one (stats/quantile_sketch.hpp); and a uniform random sample of the
/// durations of bounded size (a reservoir, Vitter's algorithm R), which becomes the report's
/// samples. Memory is fixed by `capacity` and the sketch's cap, not by the number of durations.
///
/// The reservoir's generator is seeded per aggregate, so a run is reproducible from its records.
/// Not thread-safe: the recorder serializes calls.
class DurationAggregate {
 public:
  explicit DurationAggregate(std::size_t capacity, std::uint64_t seed = 0x9e3779b97f4a7c15ULL);

  void add(double duration_ns);

  std::uint64_t count() const { return count_; }
  double total_ns() const { return total_; }
  double min_ns() const { return min_; }
  double max_ns() const { return max_; }
  double mean_ns() const { return count_ == 0 ? 0.0 : total_ / static_cast<double>(count_); }
  /// Sample standard deviation (Welford); 0 below two durations.
  double stddev_ns() const;
  /// The kept durations, in arrival order while fewer than `capacity` arrived (then every one).
  const std::vector<double>& kept() const { return kept_; }
  /// True when every duration is kept, so statistics of kept() are exact.
  bool complete() const { return count_ == kept_.size(); }
  /// The exact median while every duration is kept, else the sketch's (within 0.5 %).
  double median_ns() const;

 private:
  std::uint64_t next_random();

  std::size_t capacity_;
  std::uint64_t state_;
  std::uint64_t count_ = 0;
  double total_ = 0.0;
  double compensation_ = 0.0;  // Kahan: a total of 10^8 durations stays exact to the ns
  double mean_ = 0.0;
  double m2_ = 0.0;
  double min_ = 0.0;
  double max_ = 0.0;
  std::vector<double> kept_;
  detail::QuantileSketch sketch_;
};

}  // namespace kerntime::inject
