// SPDX-License-Identifier: Apache-2.0
// The stopping rules: pure functions of the counted samples and the elapsed time, so that the
// tests can drive them with synthetic numbers.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/measure.hpp>
#include <kerntime/measurement.hpp>

namespace kerntime::bench {

/// The median and the half-width of its distribution-free 95 % confidence interval:
/// max(median - x(j), x(k) - median) with ranks j, k = n/2 -+ 1.96 sqrt(n)/2 (the normal
/// approximation of the binomial).
struct MedianInterval {
  double median = 0.0;
  double half_width = 0.0;
};

/// Empty below 8 samples, where those ranks leave the sample. `sorted` must be sorted.
std::optional<MedianInterval> median_ci(const std::vector<double>& sorted);

/// The half-width relative to the median; empty below 8 samples or when the median is 0.
std::optional<double> median_ci_half_width(const std::vector<double>& sorted);

/// stddev / mean (Bessel-corrected); empty below 2 samples or for a mean of 0.
std::optional<double> relative_noise(const std::vector<double>& values);

struct StopDecision {
  bool stop = false;
  StopReason reason = StopReason::timeout;
  std::string detail;  ///< what was reached, in words
  bool warn = false;   ///< the estimate was not stable: the detail belongs in the warnings
};

/// Applies `criteria` to the counted headline samples (per call, ns) after `elapsed_s` of wall
/// time; `calls_per_sample` scales them to GPU time for min_time_s. In order: the fixed count,
/// then (once min_samples and min_time_s are met) the confidence interval and the noise, then
/// the sample cap and the timeout.
StopDecision check_stopping(const StoppingCriteria& criteria, const std::vector<double>& counted,
                            double elapsed_s, std::size_t calls_per_sample);

/// How many samples the next round takes: enough to reach min_samples or the fixed count,
/// otherwise half of what was counted (so checks cost O(log n) sorts), at least 8, and no more
/// than fit in a quarter second or in the time left at `seconds_per_sample`.
std::size_t next_round_size(const StoppingCriteria& criteria, std::size_t counted, double elapsed_s,
                            double seconds_per_sample);

}  // namespace kerntime::bench
