// SPDX-License-Identifier: Apache-2.0
// The decision rule of docs/ci.md for one entry: a verdict needs both significance (rank test)
// and magnitude (median change beyond the threshold, interval beyond half of it); "same" must be
// shown by the interval, not assumed from a large p; everything else is inconclusive with the
// reason.
#include "compare/entry_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <kerntime/statistics.hpp>

#include "compare/rank_test.hpp"
#include "compare/shift_interval.hpp"
#include "text/numbers.hpp"

namespace kerntime::detail {
namespace {

// The one median of the stats layer (type 7 quantile), so a comparison and a report agree.
double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, 0.5);
}

// Natural logs, sorted: the rank test is unchanged by a monotone map, and on the log scale a
// slowdown by a factor is a shift, which is what the Hodges-Lehmann interval estimates.
std::vector<double> sorted_logs(const std::vector<double>& samples, double scale) {
  std::vector<double> logs;
  logs.reserve(samples.size());
  for (double v : samples) {
    logs.push_back(std::log(v * scale));
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

bool all_positive(const std::vector<double>& samples) {
  return std::all_of(samples.begin(), samples.end(), [](double v) { return v > 0.0; });
}

// The smallest equal sample count per side at which the rank test can reach alpha at all (5 for
// 0.01): below it no data could ever be significant, so asking the test is pointless.
std::size_t samples_needed(double alpha) {
  std::size_t n = 1;
  while (smallest_two_sided_p(n, n) >= alpha)
    ++n;
  return n;
}

EntryComparison inconclusive(EntryComparison result, std::string reason) {
  result.verdict = Verdict::inconclusive;
  result.reason = std::move(reason);
  return result;
}

}  // namespace

SampleSummary summarize_side(const Entry& entry) {
  return SampleSummary{entry.samples.size(), median_of(entry.samples), entry.unit, entry.timer};
}

EntryComparison compare_entry(const Entry& baseline, const Entry& candidate, double threshold,
                              const CompareOptions& options) {
  EntryComparison result;
  result.name = baseline.name;
  result.threshold = threshold;
  result.baseline = summarize_side(baseline);
  result.candidate = summarize_side(candidate);

  // Candidate samples are converted into the baseline's unit before anything is compared.
  double scale = 1.0;
  if (baseline.unit != candidate.unit) {
    const double from = nanoseconds_per(candidate.unit);
    const double to = nanoseconds_per(baseline.unit);
    if (from == 0.0 || to == 0.0) {
      return inconclusive(std::move(result),
                          fmt::format("units differ (baseline '{}', candidate '{}') and cannot "
                                      "be converted",
                                      baseline.unit, candidate.unit));
    }
    scale = from / to;
  }
  if (!baseline.timer.empty() && !candidate.timer.empty() && baseline.timer != candidate.timer) {
    return inconclusive(std::move(result),
                        fmt::format("timers differ (baseline {}, candidate {}): their times "
                                    "measure different things; remeasure one side",
                                    baseline.timer, candidate.timer));
  }

  const std::size_t n = baseline.samples.size();
  const std::size_t m = candidate.samples.size();
  if (!all_positive(baseline.samples) || !all_positive(candidate.samples)) {
    return inconclusive(std::move(result),
                        "a sample is zero or negative, which no duration can be; check the "
                        "measurement (dropped or zero-timestamp records)");
  }
  // The change is shown even when there are too few samples to judge it.
  if (n > 0 && m > 0) result.ratio = result.candidate->median * scale / result.baseline->median;
  const std::size_t floor = std::max(options.min_samples, samples_needed(options.alpha));
  if (n < floor || m < floor) {
    return inconclusive(std::move(result),
                        fmt::format("too few samples ({} baseline, {} candidate): at least {} "
                                    "per side are needed",
                                    n, m, floor));
  }

  const std::vector<double> a = sorted_logs(baseline.samples, 1.0);
  const std::vector<double> b = sorted_logs(candidate.samples, scale);
  const double ratio = *result.ratio;
  const RankTestResult test = mann_whitney_u(a, b);
  result.p_value = test.p_value;
  result.exact_test = test.exact;
  const double level = 1.0 - options.alpha;
  const std::optional<std::size_t> excluded =
      excluded_differences(n, m, level, test.exact, test.tie_term);
  if (!excluded.has_value()) {
    return inconclusive(std::move(result),
                        fmt::format("too many tied samples for a {} interval; collect more "
                                    "samples or use a finer timer",
                                    format_percent(level)));
  }
  const Interval log_ci = shift_interval(a, b, *excluded);
  const Interval ci{std::exp(log_ci.low), std::exp(log_ci.high)};
  result.ratio_ci = ci;

  const bool significant = test.p_value < options.alpha;
  const std::string p_text = p_clause(test.p_value);
  const std::string change = format_change(ratio);
  const std::string amount = fmt::format("{:.1f}%", std::abs(ratio - 1.0) * 100.0);
  const std::string limit = format_percent(threshold);
  // Beyond the threshold by the point estimate, and at least half of it by the interval: the
  // median alone crosses a tight threshold by chance (about 2 % of same-vs-same runs at a 2 %
  // threshold in the simulation), the interval's end rarely does.
  const double margin = threshold / 2.0;
  const double ns_per_unit = nanoseconds_per(baseline.unit);
  const double change_ns = std::abs(ratio - 1.0) * result.baseline->median * ns_per_unit;
  if (ns_per_unit > 0.0 && change_ns < options.min_change_ns && std::abs(ratio - 1.0) > threshold) {
    result.verdict = Verdict::same;
    result.reason = fmt::format(
        "median {} ({:.0f} ns), below the {:.0f} ns that short kernels shift between runs "
        "(--min-change)",
        change, change_ns, options.min_change_ns);
  } else if (significant && ratio > 1.0 + threshold && ci.low > 1.0 + margin) {
    result.verdict = Verdict::regressed;
    result.reason =
        fmt::format("median {} slower, beyond the {} threshold; significant at alpha {} ({})",
                    amount, limit, options.alpha, p_text);
  } else if (significant && ratio < 1.0 - threshold && ci.high < 1.0 - margin) {
    result.verdict = Verdict::improved;
    result.reason =
        fmt::format("median {} faster, beyond the {} threshold; significant at alpha {} ({})",
                    amount, limit, options.alpha, p_text);
  } else if (ci.low >= 1.0 - threshold && ci.high <= 1.0 + threshold) {
    result.verdict = Verdict::same;
    result.reason =
        significant ? fmt::format("a significant but small change of {}, within the {} threshold",
                                  change, limit)
                    : fmt::format(
                          "no significant change ({}); the {} interval lies within the {} "
                          "threshold",
                          p_text, format_percent(level), limit);
  } else if (significant && std::abs(ratio - 1.0) > threshold) {
    result.verdict = Verdict::inconclusive;
    result.reason = fmt::format(
        "median {} {}, beyond the {} threshold, but the {} interval reaches {}, less than half "
        "of it; collect more samples to confirm",
        amount, ratio > 1.0 ? "slower" : "faster", limit, format_percent(level),
        format_change(ratio > 1.0 ? ci.low : ci.high));
  } else if (std::abs(ratio - 1.0) > threshold) {
    result.verdict = Verdict::inconclusive;
    result.reason = fmt::format(
        "median {} {}, beyond the {} threshold, but not significant at alpha {} ({}); too noisy: "
        "collect more samples",
        amount, ratio > 1.0 ? "slower" : "faster", limit, options.alpha, p_text);
  } else {
    result.verdict = Verdict::inconclusive;
    result.reason = fmt::format(
        "too noisy to rule out a change beyond {}: the {} interval runs from {} to {}; collect "
        "more samples",
        limit, format_percent(level), format_change(ci.low), format_change(ci.high));
  }
  return result;
}

}  // namespace kerntime::detail
