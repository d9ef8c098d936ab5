// SPDX-License-Identifier: Apache-2.0
// Why the rule is built this way:
// - Means, not medians: the standard deviation a tool writes is about its mean; NVBench's median
//   comes without a spread of its own.
// - Log space and the delta method, as the runs rule: a slowdown is a factor.
// - Welch's degrees of freedom: the two sides' noises differ freely (a tool's noise is its own
//   measurement), and with thousands of samples they reach the normal limit anyway.
// - The process allowance: a summary is one process, whose shift no within-process figure can
//   show (docs/ci.md, "Noise between processes").
#include "compare/summary_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "stats/student_t.hpp"
#include "text/numbers.hpp"

namespace kerntime::compare_detail {
namespace {

std::string noise_text(const std::optional<double>& noise) {
  return noise ? text::format_percent_value(*noise * 100.0, 2) : std::string{"none"};
}

// nvbench_compare.py's status: the change against the smaller noise of the two.
std::string nvbench_status(double change, const SummaryFigures& a, const SummaryFigures& b) {
  std::optional<double> noise;
  for (const auto& side : {a.relative_stdev, b.relative_stdev}) {
    if (side && *side > 0.0) noise = noise ? std::min(*noise, *side) : *side;
  }
  if (!noise) return "????";
  if (std::abs(change) <= *noise) return "SAME";
  return change < 0.0 ? "FAST" : "SLOW";
}

}  // namespace

RunsComparison compare_summaries(const SummaryFigures& baseline, const SummaryFigures& candidate,
                                 const RunsRuleOptions& options, const std::string& source) {
  RunsComparison result;
  result.baseline_runs = 1;
  result.candidate_runs = 1;
  result.ratio_ci = {0.0, std::numeric_limits<double>::infinity()};
  result.detectable_change = std::numeric_limits<double>::infinity();
  const std::string figures =
      fmt::format("{}: {} and {} samples, noise {} and {}", source, baseline.count, candidate.count,
                  noise_text(baseline.relative_stdev), noise_text(candidate.relative_stdev));
  if (!(baseline.mean_ns > 0.0) || !(candidate.mean_ns > 0.0) || !std::isfinite(baseline.mean_ns) ||
      !std::isfinite(candidate.mean_ns)) {
    result.reason = fmt::format(
        "a mean is zero or not finite, which no duration can be ({}); check the measurement",
        figures);
    return result;
  }
  result.ratio = candidate.mean_ns / baseline.mean_ns;
  const double change = result.ratio - 1.0;
  const std::string nvbench = "nvbench_compare.py: " + nvbench_status(change, baseline, candidate);
  const std::string moved =
      change == 0.0 ? std::string{"means equal"}
      : text::change_fits(change)
          ? "means " + text::format_change_size(change) + (change > 0.0 ? " slower" : " faster")
          : std::string{"means change "} + text::kTooLargeToCompare;
  if (baseline.count < 2 || candidate.count < 2) {
    result.reason = fmt::format(
        "{} ({}), but a side has fewer than 2 samples: no spread to judge "
        "them by; {}",
        moved, figures, nvbench);
    return result;
  }
  std::optional<double> noise_a = baseline.relative_stdev;
  std::optional<double> noise_b = candidate.relative_stdev;
  if (!noise_a) noise_a = noise_b;
  if (!noise_b) noise_b = noise_a;
  if (!noise_a) {
    result.reason = fmt::format(
        "{} ({}), but neither side has a noise figure (NVBench writes none for a batch "
        "measurement, and none with too few samples): no interval, no verdict; judge the "
        "entries that have one, or keep the samples; {}",
        moved, figures, nvbench);
    return result;
  }

  // Variance of each log mean, floored by the timer quantum: uniform rounding error, q^2 / 12
  // per sample, so that samples all alike (noise 0) still leave the mean an uncertainty.
  const auto variance = [&](double noise, const SummaryFigures& side) {
    const double quantum = options.resolution_ns / side.mean_ns;
    return std::max(noise * noise, quantum * quantum / 12.0) / static_cast<double>(side.count);
  };
  const double va = variance(*noise_a, baseline);
  const double vb = variance(*noise_b, candidate);
  const double se = std::sqrt(va + vb);
  const double welch_df = (va + vb) * (va + vb) /
                          (va * va / static_cast<double>(baseline.count - 1) +
                           vb * vb / static_cast<double>(candidate.count - 1));
  const double df = std::isfinite(welch_df) && welch_df >= 1.0
                        ? welch_df
                        : static_cast<double>(baseline.count + candidate.count - 2);
  const double log_ratio = std::log(result.ratio);
  const double t_critical = stats::student_t_quantile(1.0 - options.alpha / 2.0, df);
  result.p_value = stats::student_t_two_sided_p(log_ratio / se, df);
  result.degrees_of_freedom = df;

  const double allowance =
      std::max(options.one_run_shift_ns / baseline.mean_ns, options.one_run_shift_fraction);
  result.run_sd = allowance;
  result.ratio_ci = {std::exp(log_ratio - t_critical * se) / (1.0 + allowance),
                     std::exp(log_ratio + t_critical * se) * (1.0 + allowance)};
  result.detectable_change =
      std::max(result.ratio_ci.high / result.ratio, result.ratio / result.ratio_ci.low) - 1.0;

  const std::string limit = text::format_percent(options.threshold);
  const std::string level = text::format_percent(1.0 - options.alpha);
  std::string shift = text::format_whole_ns(
      std::max(options.one_run_shift_ns, options.one_run_shift_fraction * baseline.mean_ns));
  if (text::change_fits(allowance)) shift += " (" + text::format_change_size(allowance) + ")";
  if (decide_verdict(result, options.threshold, options.alpha)) {
    if (result.verdict == Verdict::same) {
      result.reason = fmt::format(
          "the {} interval of the means' ratio ({}), widened by a {} shift between processes, "
          "lies within the {} threshold; one run per side; {}",
          level, figures, shift, limit, nvbench);
    } else {
      result.reason = fmt::format(
          "{} ({}), beyond the {} threshold and a {} shift between processes; significant at "
          "alpha {} ({}); one run per side; {}",
          moved, figures, limit, shift, options.alpha, text::p_clause(result.p_value), nvbench);
    }
    return result;
  }
  const double within = std::exp(t_critical * se) - 1.0;
  if (within >= options.threshold) {
    result.reason = fmt::format(
        "{} ({}), but the noise alone leaves the {} interval wider than the {} threshold "
        "(it reaches {}): collect more samples or run more processes; {}",
        moved, figures, level, limit,
        text::change_fits(within) ? text::format_change_size(within)
                                  : std::string{text::kTooLargeToCompare},
        nvbench);
    return result;
  }
  result.reason = fmt::format(
      "{} ({}), but with one run per side a shift between processes of up to {} cannot be told "
      "from a change: run more processes; {}",
      moved, figures, shift, nvbench);
  return result;
}

}  // namespace kerntime::compare_detail
