// SPDX-License-Identifier: Apache-2.0
#include "bench/stopping.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/core.h>

#include <kerntime/statistics.hpp>

namespace kerntime::bench {
namespace {

constexpr std::size_t kMinRound = 8;
constexpr double kMaxRoundSeconds = 0.25;
constexpr double kZ95 = 1.959963984540054;

std::string percent(double share) {
  return fmt::format("{:.2f}%", 100.0 * share);
}

// What is still missing, for the timeout and sample-cap messages.
std::string unmet(const StoppingCriteria& c, const std::vector<double>& counted,
                  const std::optional<double>& ci, const std::optional<double>& noise) {
  std::string text;
  auto add = [&text](const std::string& part) { text += text.empty() ? part : "; " + part; };
  if (counted.size() < c.min_samples) {
    add(fmt::format("{} of {} samples", counted.size(), c.min_samples));
  }
  if (c.max_ci_half_width > 0) {
    add(ci ? fmt::format("CI of the median +-{} (target +-{})", percent(*ci),
                         percent(c.max_ci_half_width))
           : std::string{"too few samples for a CI of the median"});
  }
  if (c.max_noise > 0 && noise) {
    add(fmt::format("noise {} (target {})", percent(*noise), percent(c.max_noise)));
  }
  return text;
}

}  // namespace

std::optional<MedianInterval> median_ci(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n < 8) return std::nullopt;
  const double half = kZ95 * std::sqrt(static_cast<double>(n)) / 2.0;
  const double centre = static_cast<double>(n) / 2.0;
  // 1-based ranks of the interval's ends, clamped into the sample.
  const auto low_rank = static_cast<std::size_t>(std::max(1.0, std::floor(centre - half)));
  const auto high_rank =
      static_cast<std::size_t>(std::min(static_cast<double>(n), std::ceil(centre + half + 1.0)));
  const double median = quantile_sorted(sorted, 0.5);
  const double low = sorted[low_rank - 1];
  const double high = sorted[high_rank - 1];
  return MedianInterval{median, std::max(median - low, high - median)};
}

std::optional<double> median_ci_half_width(const std::vector<double>& sorted) {
  const std::optional<MedianInterval> ci = median_ci(sorted);
  if (!ci || ci->median <= 0.0) return std::nullopt;
  return ci->half_width / ci->median;
}

std::optional<double> relative_noise(const std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n < 2) return std::nullopt;
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  if (mean == 0.0) return std::nullopt;
  double squares = 0.0;
  for (double v : values)
    squares += (v - mean) * (v - mean);
  return std::sqrt(squares / static_cast<double>(n - 1)) / std::abs(mean);
}

StopDecision check_stopping(const StoppingCriteria& c, const std::vector<double>& counted,
                            double elapsed_s, std::size_t calls_per_sample) {
  const std::size_t n = counted.size();
  if (c.fixed_samples > 0 && n >= c.fixed_samples) {
    return {true, StopReason::fixed_count, fmt::format("{} samples as requested", n)};
  }
  std::vector<double> sorted = counted;
  std::sort(sorted.begin(), sorted.end());
  const std::optional<double> ci = median_ci_half_width(sorted);
  const std::optional<MedianInterval> interval = median_ci(sorted);
  const std::optional<double> noise = relative_noise(counted);

  if (c.fixed_samples == 0) {
    const double gpu_s = std::accumulate(counted.begin(), counted.end(), 0.0) * 1e-9 *
                         static_cast<double>(calls_per_sample);
    if (n >= c.min_samples && gpu_s >= c.min_time_s) {
      if (c.max_ci_half_width > 0 && interval &&
          (interval->half_width <= c.max_ci_half_width * std::abs(interval->median) ||
           interval->half_width <= c.max_ci_half_width_ns)) {
        return {true, StopReason::stable,
                fmt::format("95% CI of the median within +-{:.0f} ns{} after {} samples",
                            interval->half_width,
                            ci ? fmt::format(" (+-{})", percent(*ci)) : std::string{}, n)};
      }
      if (c.max_noise > 0 && noise && *noise <= c.max_noise) {
        return {true, StopReason::noise,
                fmt::format("relative noise {} <= {} after {} samples", percent(*noise),
                            percent(c.max_noise), n)};
      }
    }
  }
  if (n >= c.max_samples) {
    return {true, StopReason::max_samples,
            fmt::format("sample cap of {} reached before {}", c.max_samples,
                        unmet(c, counted, ci, noise)),
            true};
  }
  if (elapsed_s >= c.timeout_s) {
    std::string missing = c.fixed_samples > 0 ? fmt::format("{} of {} samples", n, c.fixed_samples)
                                              : unmet(c, counted, ci, noise);
    return {true, StopReason::timeout,
            fmt::format("{:g} s timeout after {} samples, before {}", c.timeout_s, n, missing),
            true};
  }
  return {};
}

std::size_t next_round_size(const StoppingCriteria& c, std::size_t counted, double elapsed_s,
                            double seconds_per_sample) {
  std::size_t size = std::max(kMinRound, counted / 2);
  if (c.fixed_samples > 0) {
    size = c.fixed_samples > counted ? c.fixed_samples - counted : 1;
  } else if (counted < c.min_samples) {
    size = std::max(size, c.min_samples - counted);
  }
  if (seconds_per_sample > 0.0) {
    const double left = std::max(c.timeout_s - elapsed_s, 0.0);
    const double budget = std::min(kMaxRoundSeconds, left);
    const auto fit = static_cast<std::size_t>(budget / seconds_per_sample);
    size = std::min(size, std::max<std::size_t>(fit, 1));
  }
  if (c.max_samples > counted) size = std::min(size, c.max_samples - counted);
  return std::max<std::size_t>(size, 1);
}

}  // namespace kerntime::bench
