// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/export.hpp>

namespace kerntime {

/// A closed interval [low, high], e.g. a confidence interval.
struct Interval {
  double low = 0.0;
  double high = 0.0;
};

/// Summary statistics of one region's samples (all values in the samples' unit, e.g. ns).
///
/// `count == 0` means there is nothing to summarize and every other field is meaningless.
/// Fields that need more than one sample are optional and empty when they cannot be estimated,
/// so a report says "not enough samples" instead of printing NaN or infinity.
struct Statistics {
  std::size_t count = 0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double median = 0.0;
  double q1 = 0.0;   ///< 25th percentile
  double q3 = 0.0;   ///< 75th percentile
  double p95 = 0.0;  ///< 95th percentile
  double p99 = 0.0;  ///< 99th percentile
  double mad = 0.0;  ///< median absolute deviation from the median (unscaled)

  std::optional<double> stddev;          ///< sample standard deviation (n - 1); needs 2 samples
  std::optional<double> relative_noise;  ///< stddev / mean; needs 2 samples and mean != 0
  std::optional<Interval> median_ci;     ///< confidence interval of the median; needs 2 samples
  double median_ci_level = 0.95;         ///< the confidence level of median_ci
  std::string median_ci_method;          ///< "bootstrap" or "order-statistic"
};

/// How compute_statistics() estimates the confidence interval of the median.
struct StatisticsOptions {
  double confidence_level = 0.95;
  /// Bootstrap resamples; the interval is the percentile interval of the resampled medians.
  std::size_t bootstrap_resamples = 2000;
  /// Above this many samples the distribution-free order-statistic interval is used instead of
  /// the bootstrap: at that size they agree and the bootstrap would cost seconds.
  std::size_t bootstrap_max_samples = 20000;
  /// The bootstrap is seeded so that a report is reproducible from its samples.
  std::uint64_t seed = 0x6b65726e74696d65ULL;
  /// false: leave median_ci empty (and median_ci_method ""). The interval is the one costly
  /// statistic (a 2,000-resample bootstrap of up to 20,000 samples); callers that never show it,
  /// such as `kerntime compare` or statistics that are recomputed after a merge, skip it.
  bool median_interval = true;
};

/// Computes the statistics of `samples`.
///
/// Quantiles interpolate linearly between order statistics (Hyndman and Fan type 7, NumPy's
/// default). Throws kerntime::Error naming the index of the first NaN or infinite sample:
/// such a value is a measurement bug and must never reach a report.
KERNTIME_API Statistics compute_statistics(const std::vector<double>& samples,
                                           const StatisticsOptions& options = {});

/// Linear-interpolation quantile (type 7) of already sorted, finite values; q in [0, 1].
/// Throws kerntime::Error when `sorted` is empty or q is outside [0, 1].
KERNTIME_API double quantile_sorted(const std::vector<double>& sorted, double q);

/// The median of `values` in any order, as quantile_sorted(sorted, 0.5) gives it (the middle
/// two interpolated for an even count); 0 for none. The one median every part of kerntime uses.
KERNTIME_API double median(std::vector<double> values);

}  // namespace kerntime
