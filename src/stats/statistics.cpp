// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>

#include "stats/numeric.hpp"
#include "stats/splitmix64.hpp"

namespace kerntime {
namespace {

using stats::format_double;
using stats::lerp;

// Median of an unsorted buffer with the same interpolation as quantile_sorted(values, 0.5); the
// buffer is reordered. O(n): one selection, plus a scan for the lower neighbour when n is even.
double median_in_place(std::vector<double>& values) {
  const std::size_t n = values.size();
  const std::size_t upper = n / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(upper),
                   values.end());
  const double upper_value = values[upper];
  if (n % 2 == 1) return upper_value;
  // After nth_element everything before `upper` is <= values[upper]; its maximum is the
  // (upper - 1)-th order statistic.
  const double lower_value =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(upper));
  return lerp(lower_value, upper_value, 0.5);
}

// xoshiro256** seeded through splitmix64 (Blackman and Vigna). Implemented here rather than taken
// from <random> so that the bootstrap, and therefore a report's interval, is bit-identical across
// standard libraries and platforms.
class Xoshiro256 {
 public:
  explicit Xoshiro256(std::uint64_t seed) {
    for (std::uint64_t& word : state_)
      word = stats::splitmix64_next(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound), bound in [1, 2^32], without modulo bias: Lemire's
  // multiply-shift with rejection ("Fast Random Integer Generation in an Interval", 2019).
  // 64-bit arithmetic only, so no compiler extension such as __int128 is needed.
  std::uint32_t below(std::uint64_t bound) {
    std::uint64_t product = (next() >> 32) * bound;
    auto low = static_cast<std::uint32_t>(product);
    if (low < bound) {
      const auto threshold = static_cast<std::uint32_t>((std::uint64_t{1} << 32) % bound);
      while (low < threshold) {
        product = (next() >> 32) * bound;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::uint64_t state_[4];
};

void validate(const StatisticsOptions& options) {
  const double level = options.confidence_level;
  // Written so that NaN fails too.
  if (!(level > 0.0 && level < 1.0)) {
    throw Error("statistics: confidence_level must be strictly between 0 and 1 (e.g. 0.95), got " +
                format_double(level));
  }
  constexpr std::size_t kMinResamples = 100;
  if (options.bootstrap_resamples < kMinResamples) {
    throw Error("statistics: bootstrap_resamples must be at least " +
                std::to_string(kMinResamples) +
                " for the percentile interval to mean anything (2000 is the default), got " +
                std::to_string(options.bootstrap_resamples));
  }
}

void reject_non_finite(const std::vector<double>& samples) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double x = samples[i];
    if (std::isfinite(x)) continue;
    const char* what = std::isnan(x) ? "NaN" : (x > 0 ? "+inf" : "-inf");
    throw Error("statistics: sample " + std::to_string(i) + " is " + what +
                "; samples must be finite durations (this is a measurement bug, not noise)");
  }
}

struct Moments {
  double mean = 0.0;
  double stddev = 0.0;  // meaningful for n >= 2
};

// Two-pass mean and variance with compensated sums. The samples are first scaled by a power of
// two (exact) so that neither the sum nor the squared deviations can overflow, whatever the unit.
Moments moments(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  const double largest = std::max(std::fabs(sorted.front()), std::fabs(sorted.back()));
  int exponent = 0;
  if (largest > 0.0) std::frexp(largest, &exponent);

  // Neumaier's variant of Kahan summation: exact enough that the mean of identical samples is
  // that sample, and independent of magnitude ordering.
  double sum = 0.0;
  double compensation = 0.0;
  for (const double x : sorted) {
    const double scaled = std::ldexp(x, -exponent);
    const double t = sum + scaled;
    compensation += std::fabs(sum) >= std::fabs(scaled) ? (sum - t) + scaled : (scaled - t) + sum;
    sum = t;
  }
  const double scaled_mean = (sum + compensation) / static_cast<double>(n);

  Moments result;
  // Rounding may put the mean an ulp outside the data; a mean outside [min, max] is never right.
  result.mean = std::clamp(std::ldexp(scaled_mean, exponent), sorted.front(), sorted.back());
  if (n < 2) return result;

  // Corrected two-pass algorithm (Chan, Golub and LeVeque): the second term removes the error
  // left in the mean.
  double squares = 0.0;
  double deviations = 0.0;
  for (const double x : sorted) {
    const double d = std::ldexp(x, -exponent) - scaled_mean;
    squares += d * d;
    deviations += d;
  }
  const double nd = static_cast<double>(n);
  const double variance = std::max(0.0, (squares - deviations * deviations / nd) / (nd - 1.0));
  result.stddev = std::ldexp(std::sqrt(variance), exponent);
  return result;
}

// Percentile bootstrap of the median. Resampling from the sorted samples makes the interval depend
// only on the multiset of samples, not on the order in which they were recorded.
//
// Because the samples are sorted, a resample is fully described by how often each index was
// drawn, and its median is the sample at the index where the running count crosses the middle.
// Counting the draws and scanning the counts is O(n) per resample like nth_element, but several
// times faster (no data movement, a scan that stops halfway), and gives exactly the same medians
// as selecting over the gathered values.
Interval bootstrap_median_interval(const std::vector<double>& sorted,
                                   const StatisticsOptions& options) {
  const std::size_t n = sorted.size();
  // 0-based ranks of the two middle elements of a resample; equal when n is odd.
  const std::size_t upper_rank = n / 2;
  const std::size_t lower_rank = n % 2 == 1 ? upper_rank : upper_rank - 1;

  Xoshiro256 rng(options.seed);
  std::vector<std::uint32_t> counts(n);
  std::vector<double> medians(options.bootstrap_resamples);
  for (double& median : medians) {
    std::fill(counts.begin(), counts.end(), 0U);
    for (std::size_t i = 0; i < n; ++i)
      ++counts[rng.below(n)];
    // The element of rank r sits at the first index whose cumulative count exceeds r; the counts
    // sum to n > upper_rank, so both scans stop inside the array.
    std::size_t index = 0;
    std::size_t below = 0;  // resampled elements at indices before `index`
    while (below + counts[index] <= lower_rank)
      below += counts[index++];
    const std::size_t lower_index = index;
    while (below + counts[index] <= upper_rank)
      below += counts[index++];
    median = lower_index == index ? sorted[index] : lerp(sorted[lower_index], sorted[index], 0.5);
  }
  std::sort(medians.begin(), medians.end());
  const double tail = (1.0 - options.confidence_level) / 2.0;
  return {quantile_sorted(medians, tail), quantile_sorted(medians, 1.0 - tail)};
}

struct OrderStatisticInterval {
  Interval interval;
  double level = 0.0;
};

// Distribution-free interval [x_(j), x_(n+1-j)] (1-based order statistics): the number of samples
// below the true median is Binomial(n, 1/2), so the interval covers it with probability
// 1 - 2 P(B <= j - 1). j is the largest index whose coverage still reaches the requested level.
OrderStatisticInterval order_statistic_median_interval(const std::vector<double>& sorted,
                                                       double level) {
  const std::size_t n = sorted.size();
  const double nd = static_cast<double>(n);
  const double tail = (1.0 - level) / 2.0;

  // Below n/2 - 6 sqrt(n) the binomial tail is under exp(-72) (Hoeffding), far below any tail a
  // double level can ask for, so the CDF can start there: O(sqrt(n)) terms instead of O(n).
  const double start = std::floor(nd / 2.0 - 6.0 * std::sqrt(nd));
  const std::size_t first = start > 0.0 ? static_cast<std::size_t>(start) : 0;
  const double first_d = static_cast<double>(first);
  // log P(B = i) = log C(n, i) - n log 2, advanced by the ratio (n - i) / (i + 1) so that no term
  // underflows the way 2^-n does.
  double log_pmf = std::lgamma(nd + 1.0) - std::lgamma(first_d + 1.0) -
                   std::lgamma(nd - first_d + 1.0) - nd * std::log(2.0);
  double cdf = 0.0;
  std::size_t j = 0;  // 0: not even [x_(1), x_(n)] reaches the level
  for (std::size_t i = first; i < n; ++i) {
    cdf += std::exp(log_pmf);
    if (cdf > tail) break;
    j = i + 1;
    log_pmf += std::log((nd - static_cast<double>(i)) / static_cast<double>(i + 1));
  }

  OrderStatisticInterval result;
  result.level = level;
  if (j == 0) {
    // Too few samples for this level: report the widest interval with the coverage it really
    // has, 1 - 2^(1-n), rather than claim a level it does not reach. Only small n gets here
    // (the loop started at 0), so the power of two is exact.
    j = 1;
    result.level = 1.0 - std::ldexp(1.0, 1 - static_cast<int>(n));
  }
  result.interval = {sorted[j - 1], sorted[n - j]};
  return result;
}

}  // namespace

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) throw Error("statistics: cannot take a quantile of no samples");
  if (!(q >= 0.0 && q <= 1.0)) {
    throw Error("statistics: quantile must be between 0 and 1, got " + format_double(q));
  }
  const std::size_t n = sorted.size();
  // Hyndman and Fan type 7: h = (n - 1) q, interpolate between the neighbouring order statistics.
  const double h = static_cast<double>(n - 1) * q;
  const double floor_h = std::floor(h);
  const auto lower = static_cast<std::size_t>(floor_h);
  if (lower + 1 >= n) return sorted[n - 1];
  const double t = h - floor_h;
  if (t == 0.0) return sorted[lower];
  return lerp(sorted[lower], sorted[lower + 1], t);
}

Statistics compute_statistics(const std::vector<double>& samples,
                              const StatisticsOptions& options) {
  validate(options);
  reject_non_finite(samples);

  Statistics stats;
  stats.median_ci_level = options.confidence_level;
  stats.count = samples.size();
  if (samples.empty()) return stats;

  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();

  stats.min = sorted.front();
  stats.max = sorted.back();
  stats.median = quantile_sorted(sorted, 0.5);
  stats.q1 = quantile_sorted(sorted, 0.25);
  stats.q3 = quantile_sorted(sorted, 0.75);
  stats.p95 = quantile_sorted(sorted, 0.95);
  stats.p99 = quantile_sorted(sorted, 0.99);

  std::vector<double> deviations(n);
  for (std::size_t i = 0; i < n; ++i)
    deviations[i] = std::fabs(sorted[i] - stats.median);
  stats.mad = median_in_place(deviations);

  const Moments m = moments(sorted);
  stats.mean = m.mean;
  if (n < 2) return stats;

  stats.stddev = m.stddev;
  if (stats.mean != 0.0) {
    const double noise = m.stddev / stats.mean;
    // A mean that is a rounding residue (samples straddling zero) gives no meaningful ratio.
    if (std::isfinite(noise)) stats.relative_noise = noise;
  }

  if (!options.median_interval) return stats;

  // The bootstrap draws 32-bit indices, so larger inputs always take the order-statistic path
  // (where the two agree anyway).
  constexpr std::size_t kMaxBootstrapIndex = std::numeric_limits<std::uint32_t>::max();
  if (n <= options.bootstrap_max_samples && n <= kMaxBootstrapIndex) {
    stats.median_ci = bootstrap_median_interval(sorted, options);
    stats.median_ci_method = "bootstrap";
  } else {
    const OrderStatisticInterval ci =
        order_statistic_median_interval(sorted, options.confidence_level);
    stats.median_ci = ci.interval;
    stats.median_ci_level = ci.level;
    stats.median_ci_method = "order-statistic";
  }
  return stats;
}

double median(std::vector<double> values) {
  return values.empty() ? 0.0 : median_in_place(values);
}

}  // namespace kerntime
