// SPDX-License-Identifier: Apache-2.0
// The per-process rule of docs/ci.md ("Several processes per side"). Why each piece:
// - Per-run medians, not pooled samples: the samples of one process share its shift, so
//   pooling them would count one process's shift thirty times as evidence.
// - Log space: a slowdown by a factor is a shift of the log, and the spread of a kernel's
//   process levels scales with its time.
// - A pooled variance (equal spread on both sides, as for one kernel on one machine) with
//   n_A + n_B - 2 degrees of freedom: Welch's test would lean on one side's two to eight values
//   alone, and a side whose runs all landed on one level would claim no noise at all.
// - The floors: a run's median has sampling error of its own, and a quantized timer can make
//   every run's median identical; neither may let the spread estimate reach zero.
#include "compare/runs_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>

#include "compare/rank_test.hpp"
#include "compare/shift_interval.hpp"
#include "stats/student_t.hpp"
#include "text/numbers.hpp"

namespace kerntime::compare_detail {
namespace {

// sqrt(pi / 2): the standard error of a median is this times sigma / sqrt(n) for normal data.
constexpr double kMedianEfficiency = 1.2533141373155003;
// The MAD of normal data times this is its standard deviation.
constexpr double kMadToSigma = 1.482602218505602;

// One run reduced to what the rule needs.
struct RunSummary {
  double median = 0.0;      // ns
  double log_median = 0.0;  // log of the median of the samples (= median of the log samples)
  // Variance of log_median from the run's own samples and the timer quantum.
  double sampling_variance = 0.0;
};

RunSummary summarize_run(const std::vector<double>& samples, double resolution_ns) {
  std::vector<double> logs;
  logs.reserve(samples.size());
  for (double v : samples)
    logs.push_back(std::log(v));
  RunSummary run;
  run.log_median = median(logs);
  run.median = std::exp(run.log_median);
  std::vector<double> deviations;
  deviations.reserve(logs.size());
  for (double v : logs)
    deviations.push_back(std::fabs(v - run.log_median));
  const double sigma = kMadToSigma * median(deviations);
  const double se = kMedianEfficiency * sigma / std::sqrt(static_cast<double>(logs.size()));
  // Rounding to a quantum q errs by up to q / 2, uniformly: variance q^2 / 12, relative here.
  const double quantum = resolution_ns / run.median;
  run.sampling_variance = se * se + quantum * quantum / 12.0;
  return run;
}

bool all_valid(const Runs& runs) {
  for (const auto& run : runs) {
    for (double v : run) {
      if (!(v > 0.0) || !std::isfinite(v)) return false;
    }
  }
  return true;
}

void check_side(const Runs& runs, const char* side) {
  if (runs.empty()) {
    throw Error(
        fmt::format("compare_runs: the {} has no runs; every compared entry needs at "
                    "least one run per side",
                    side));
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].empty()) {
      throw Error(
          fmt::format("compare_runs: run {} of the {} has no samples; drop empty runs "
                      "before comparing",
                      i + 1, side));
    }
  }
}

double relative_range(const std::vector<RunSummary>& runs) {
  if (runs.size() < 2) return 0.0;
  const auto [low, high] = std::minmax_element(
      runs.begin(), runs.end(),
      [](const RunSummary& x, const RunSummary& y) { return x.median < y.median; });
  return high->median / low->median - 1.0;
}

// "median 10.2% slower"; "median change too large to compare" when the ratio overflowed or is
// a change of 1e10 % and more (a median of 1e300 ns against one of 5e-324 ns).
std::string moved(bool several_runs, double ratio) {
  if (!text::change_fits(ratio - 1.0)) {
    return std::string(several_runs ? "run median" : "median") + " change " +
           text::kTooLargeToCompare;
  }
  return std::string(several_runs ? "run medians " : "median ") +
         text::format_change_size(ratio - 1.0) + (ratio > 1.0 ? " slower" : " faster");
}

// "changes under about 3.1% cannot be told from noise", or what to say when that size does not
// fit in a number.
std::string noise_clause(double detectable_change) {
  if (!text::change_fits(detectable_change)) {
    return std::string("the smallest change it can tell from noise is ") + text::kTooLargeToCompare;
  }
  return "changes under about " + text::format_change_size(detectable_change) +
         " cannot be told from noise";
}

RunsComparison compare_one_run_each(const std::vector<double>& baseline,
                                    const std::vector<double>& candidate,
                                    const RunsRuleOptions& options, RunsComparison result) {
  std::vector<double> a;
  std::vector<double> b;
  for (double v : baseline)
    a.push_back(std::log(v));
  for (double v : candidate)
    b.push_back(std::log(v));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double median_a = std::exp(quantile_sorted(a, 0.5));
  result.ratio = std::exp(quantile_sorted(b, 0.5)) / median_a;
  const double allowance =
      std::max(options.one_run_shift_ns / median_a, options.one_run_shift_fraction);
  result.run_sd = allowance;
  const std::string limit = text::format_percent(options.threshold);
  // allowance * median_a, without the overflow of a huge allowance at a denormal median.
  std::string shift = text::format_whole_ns(
      std::max(options.one_run_shift_ns, options.one_run_shift_fraction * median_a));
  if (text::change_fits(allowance)) shift += " (" + text::format_change_size(allowance) + ")";

  const RankTestResult test = mann_whitney_u(a, b);
  result.p_value = test.p_value;
  result.exact_test = test.exact;
  const double level = 1.0 - options.alpha;
  const std::optional<std::size_t> excluded =
      excluded_differences(a.size(), b.size(), level, test.exact, test.tie_term);
  if (!excluded.has_value()) {
    result.ratio_ci = {0.0, std::numeric_limits<double>::infinity()};
    result.detectable_change = std::numeric_limits<double>::infinity();
    result.reason = fmt::format(
        "one run per side with too few samples ({} baseline, {} candidate) or too many ties for "
        "a {} interval; run more processes",
        baseline.size(), candidate.size(), text::format_percent(level));
    return result;
  }
  const Interval log_ci = shift_interval(a, b, *excluded);
  // The within-run interval, widened by what a process-to-process shift could add.
  result.ratio_ci = {std::exp(log_ci.low) / (1.0 + allowance),
                     std::exp(log_ci.high) * (1.0 + allowance)};
  result.detectable_change =
      std::max(result.ratio_ci.high / result.ratio, result.ratio / result.ratio_ci.low) - 1.0;
  if (decide_verdict(result, options.threshold, options.alpha)) {
    switch (result.verdict) {
      case Verdict::regressed:
      case Verdict::improved:
        result.reason = fmt::format(
            "{}, beyond the {} threshold and a {} shift between processes; "
            "significant at alpha {} ({}); one run per side",
            moved(false, result.ratio), limit, shift, options.alpha,
            text::p_clause(result.p_value));
        break;
      default:
        result.reason = fmt::format(
            "the {} interval, widened by a {} shift between processes, lies within the {} "
            "threshold; one run per side",
            text::format_percent(level), shift, limit);
    }
    return result;
  }
  // When the run's own samples already leave the interval wider than the threshold, more
  // samples help; otherwise only more processes can replace the allowance with a measurement.
  const double within_run =
      std::max(std::exp(log_ci.high) / result.ratio, result.ratio / std::exp(log_ci.low)) - 1.0;
  if (within_run >= options.threshold) {
    const std::string reach = text::change_fits(within_run)
                                  ? text::format_change_size(within_run)
                                  : std::string("a change ") + text::kTooLargeToCompare;
    result.reason = fmt::format(
        "{}, but the samples alone are too noisy to rule out a change beyond {} (the {} "
        "interval reaches {} before a shift between processes of up to {}): collect more "
        "samples or run more processes",
        moved(false, result.ratio), limit, text::format_percent(level), reach, shift);
    return result;
  }
  result.reason = fmt::format(
      "{}, but with one run per side a shift between processes of up to {} cannot be told from "
      "a change; {}: run more processes",
      moved(false, result.ratio), shift, noise_clause(result.detectable_change));
  return result;
}

}  // namespace

bool decide_verdict(RunsComparison& result, double threshold, double alpha) {
  const double margin = threshold / 2.0;
  const bool significant = result.p_value < alpha;
  if (significant && result.ratio > 1.0 + threshold && result.ratio_ci.low > 1.0 + margin) {
    result.verdict = Verdict::regressed;
  } else if (significant && result.ratio < 1.0 - threshold && result.ratio_ci.high < 1.0 - margin) {
    result.verdict = Verdict::improved;
  } else if (result.ratio_ci.low >= 1.0 - threshold && result.ratio_ci.high <= 1.0 + threshold) {
    result.verdict = Verdict::same;
  } else {
    result.verdict = Verdict::inconclusive;
    return false;
  }
  return true;
}

RunsComparison compare_runs(const Runs& baseline, const Runs& candidate,
                            const RunsRuleOptions& options) {
  check_side(baseline, "baseline");
  check_side(candidate, "candidate");
  RunsComparison result;
  result.baseline_runs = baseline.size();
  result.candidate_runs = candidate.size();
  if (!all_valid(baseline) || !all_valid(candidate)) {
    result.ratio_ci = {0.0, std::numeric_limits<double>::infinity()};
    result.detectable_change = std::numeric_limits<double>::infinity();
    result.reason =
        "a sample is zero, negative or not finite, which no duration can be; check the "
        "measurement (dropped or zero-timestamp records)";
    return result;
  }
  const std::size_t k_a = baseline.size();
  const std::size_t k_b = candidate.size();
  if (k_a == 1 && k_b == 1) {
    return compare_one_run_each(baseline.front(), candidate.front(), options, std::move(result));
  }
  result.between_runs = true;

  std::vector<RunSummary> runs_a;
  std::vector<RunSummary> runs_b;
  for (const auto& run : baseline)
    runs_a.push_back(summarize_run(run, options.resolution_ns));
  for (const auto& run : candidate)
    runs_b.push_back(summarize_run(run, options.resolution_ns));

  // Mean log median per side, the sum of squares around it, and the sampling floor.
  double floor = 0.0;
  double sum_of_squares = 0.0;
  double mean[2] = {0.0, 0.0};
  const std::vector<RunSummary>* sides[2] = {&runs_a, &runs_b};
  for (int s = 0; s < 2; ++s) {
    for (const RunSummary& run : *sides[s]) {
      mean[s] += run.log_median;
      floor += run.sampling_variance;
    }
    mean[s] /= static_cast<double>(sides[s]->size());
    for (const RunSummary& run : *sides[s]) {
      sum_of_squares += (run.log_median - mean[s]) * (run.log_median - mean[s]);
    }
  }
  floor /= static_cast<double>(k_a + k_b);
  const double df = static_cast<double>(k_a + k_b - 2);
  const double variance = std::max(sum_of_squares / df, floor);
  const double se =
      std::sqrt(variance * (1.0 / static_cast<double>(k_a) + 1.0 / static_cast<double>(k_b)));
  const double log_ratio = mean[1] - mean[0];
  const double t_critical = stats::student_t_quantile(1.0 - options.alpha / 2.0, df);
  result.degrees_of_freedom = df;
  result.ratio = std::exp(log_ratio);
  result.ratio_ci = {std::exp(log_ratio - t_critical * se), std::exp(log_ratio + t_critical * se)};
  result.p_value = stats::student_t_two_sided_p(log_ratio / se, df);
  result.run_sd = std::sqrt(variance);
  result.run_spread = std::max(relative_range(runs_a), relative_range(runs_b));
  result.detectable_change = std::exp(t_critical * se) - 1.0;

  const std::string limit = text::format_percent(options.threshold);
  const std::string level = text::format_percent(1.0 - options.alpha);
  const std::string runs = fmt::format("{} + {} runs", k_a, k_b);
  const std::string spread =
      "per-process medians spread " + text::format_change_size(result.run_spread);
  if (decide_verdict(result, options.threshold, options.alpha)) {
    switch (result.verdict) {
      case Verdict::regressed:
      case Verdict::improved:
        result.reason = fmt::format(
            "{} ({}), beyond the {} threshold and what the spread between processes explains "
            "({}); significant at alpha {} ({})",
            moved(true, result.ratio), runs, limit, spread, options.alpha,
            text::p_clause(result.p_value));
        break;
      default:
        result.reason = fmt::format(
            "the {} interval of the run medians ({}, {}) lies within "
            "the {} threshold; {}",
            level, text::format_change(result.ratio_ci.low),
            text::format_change(result.ratio_ci.high), limit, spread);
    }
    return result;
  }
  // Inconclusive. An entry whose noise alone is as wide as the threshold is unstable: say how
  // large a change it could detect and what would help.
  if (result.detectable_change >= options.threshold) {
    result.reason =
        fmt::format("{} ({}); {}: run more processes or raise the threshold for this entry", spread,
                    runs, noise_clause(result.detectable_change));
  } else if (result.p_value < options.alpha && std::abs(result.ratio - 1.0) > options.threshold) {
    result.reason = fmt::format(
        "{}, beyond the {} threshold, but the {} interval reaches {}, less than half of it; run "
        "more processes to confirm",
        moved(true, result.ratio), limit, level,
        text::format_change(result.ratio > 1.0 ? result.ratio_ci.low : result.ratio_ci.high));
  } else {
    result.reason = fmt::format(
        "{}; the {} interval ({}, {}) crosses the {} threshold ({}, {}); run more processes",
        moved(true, result.ratio), level, text::format_change(result.ratio_ci.low),
        text::format_change(result.ratio_ci.high), limit, spread,
        noise_clause(result.detectable_change));
  }
  return result;
}

}  // namespace kerntime::compare_detail
