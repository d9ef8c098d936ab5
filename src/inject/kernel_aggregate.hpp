// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stats/streaming_summary.hpp"

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

  std::uint64_t count() const { return summary_.count(); }
  double total_ns() const { return summary_.sum(); }
  double min_ns() const { return summary_.empty() ? 0.0 : summary_.min(); }
  double max_ns() const { return summary_.empty() ? 0.0 : summary_.max(); }
  double mean_ns() const { return summary_.empty() ? 0.0 : summary_.mean(); }
  /// Sample standard deviation (Welford); 0 below two durations.
  double stddev_ns() const;
  /// The kept durations, in arrival order while fewer than `capacity` arrived (then every one).
  const std::vector<double>& kept() const { return kept_; }
  /// True when every duration is kept, so statistics of kept() are exact.
  bool complete() const { return count() == kept_.size(); }
  /// The exact median while every duration is kept, else the sketch's (within 0.5 %).
  double median_ns() const;

 private:
  std::uint64_t next_random();

  std::size_t capacity_;
  std::uint64_t state_;
  stats::StreamingSummary summary_;  // count, compensated total, extremes, quantile sketch
  double mean_ = 0.0;                // Welford's running mean and squared deviations
  double m2_ = 0.0;
  std::vector<double> kept_;
};

}  // namespace kerntime::inject
