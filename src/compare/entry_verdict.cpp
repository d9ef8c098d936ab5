// SPDX-License-Identifier: Apache-2.0
// The decision rule of docs/ci.md for one entry: what makes a pair comparable at all (units,
// timers, positive samples, enough of them), then compare_runs() on the runs of both sides: a
// verdict needs both significance and magnitude (median change beyond the threshold, interval
// beyond half of it); "same" must be shown by the interval, not assumed from a large p;
// everything else is inconclusive with the reason.
#include "compare/entry_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

#include "compare/rank_test.hpp"
#include "compare/runs_rule.hpp"
#include "compare/summary_rule.hpp"
#include "text/numbers.hpp"

namespace kerntime::compare_detail {
namespace {

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

// Each run in nanoseconds (`to_ns` per unit of the entry), for the rule.
Runs scaled_runs(const Entry& entry, double to_ns) {
  Runs runs = entry.runs();
  for (auto& run : runs) {
    for (double& v : run)
      v *= to_ns;
  }
  return runs;
}

// The allowance for a shift between processes by timer, each measured for its kind: GPU
// timers, host time (NVTX ranges), CPU benchmarks; --process-allowance overrides it.
RunsRuleOptions rule_options(const Entry& baseline, const Entry& candidate, double threshold,
                             const CompareOptions& options) {
  RunsRuleOptions rule;
  rule.threshold = threshold;
  rule.alpha = options.alpha;
  if (options.process_allowance) {
    rule.one_run_shift_ns = 0.0;
    rule.one_run_shift_fraction = *options.process_allowance;
  } else if (holds_host_time(baseline) || holds_host_time(candidate)) {
    rule.one_run_shift_fraction = RunsRuleOptions::kHostTimeShiftFraction;
  } else if (holds_cpu_time(baseline) || holds_cpu_time(candidate)) {
    rule.one_run_shift_ns = 0.0;
    rule.one_run_shift_fraction = RunsRuleOptions::kCpuTimeShiftFraction;
  }
  return rule;
}

// A side's summary in ns: the one its file wrote, or one computed from its samples when only
// the other side has summaries.
SummaryFigures figures(const Entry& entry, double to_ns) {
  SummaryFigures f;
  if (entry.summary_only) {
    f.count = entry.summary_only->count;
    f.mean_ns = entry.summary_only->mean * to_ns;
    f.relative_stdev = entry.summary_only->relative_stdev;
    return f;
  }
  if (entry.samples.empty()) return f;  // no samples: compare_summaries() says so
  StatisticsOptions plain;
  plain.median_interval = false;
  const Statistics s = compute_statistics(entry.samples, plain);
  f.count = entry.samples.size();
  f.mean_ns = s.mean * to_ns;
  f.relative_stdev = s.relative_noise;  // absent below 2 samples
  return f;
}

std::string summaries_source(const Entry& baseline, const Entry& candidate) {
  const bool nvbench = baseline.timer.rfind("nvbench", 0) == 0;
  const std::string whose = nvbench ? "NVBench's summaries" : "the files' summaries";
  if (baseline.summary_only && candidate.summary_only) return whose;
  return whose + fmt::format(" (the {}'s computed from its samples)",
                             baseline.summary_only ? "candidate" : "baseline");
}

}  // namespace

SampleSummary summarize_side(const Entry& entry) {
  SampleSummary summary{entry.samples.size(), median(entry.samples), entry.unit, entry.timer,
                        entry.run_count()};
  if (entry.measurement && entry.unit == "ns" && !entry.samples.empty()) {
    summary.throughput = compute_throughput(entry.measurement->work, summary.median,
                                            entry.measurement->peak_bandwidth_gb_per_s);
  }
  return summary;
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
    const double from = text::nanoseconds_per(candidate.unit);
    const double to = text::nanoseconds_per(baseline.unit);
    if (from == 0.0 || to == 0.0) {
      return inconclusive(std::move(result),
                          fmt::format("units differ (baseline '{}', candidate '{}') and cannot "
                                      "be converted",
                                      baseline.unit, candidate.unit));
    }
    scale = from / to;
  }
  if (timers_differ(baseline, candidate)) {
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

  // The rule works in nanoseconds: its timer quantum and its allowance for one run per side are
  // durations. An unknown unit (same on both sides) is taken as it is.
  const double baseline_ns =
      text::nanoseconds_per(baseline.unit) > 0.0 ? text::nanoseconds_per(baseline.unit) : 1.0;
  const RunsRuleOptions rule = rule_options(baseline, candidate, threshold, options);
  const bool from_summaries = (baseline.summary_only || candidate.summary_only) &&
                              baseline.run_count() == 1 && candidate.run_count() == 1;
  RunsComparison runs;
  Runs a;
  Runs b;
  if (from_summaries) {
    runs =
        compare_summaries(figures(baseline, baseline_ns), figures(candidate, baseline_ns * scale),
                          rule, summaries_source(baseline, candidate));
  } else {
    const std::size_t floor = std::max(options.min_samples, samples_needed(options.alpha));
    if (n < floor || m < floor) {
      return inconclusive(std::move(result),
                          fmt::format("too few samples ({} baseline, {} candidate): at least {} "
                                      "per side are needed",
                                      n, m, floor));
    }
    try {
      a = scaled_runs(baseline, baseline_ns);
      b = scaled_runs(candidate, baseline_ns * scale);
    } catch (const Error& error) {
      return inconclusive(std::move(result), error.what());
    }
    runs = compare_runs(a, b, rule);
  }
  result.verdict = runs.verdict;
  result.reason = runs.reason;
  result.ratio = runs.ratio;
  result.ratio_ci = runs.ratio_ci;
  // A summary without a noise figure has no test and no interval: no p either.
  if (!from_summaries || std::isfinite(runs.ratio_ci.high)) result.p_value = runs.p_value;
  result.exact_test = !runs.between_runs && runs.exact_test;
  result.between_runs = runs.between_runs;
  if (runs.between_runs) result.run_spread = runs.run_spread;
  if (std::isfinite(runs.detectable_change)) result.detectable_change = runs.detectable_change;
  if (!std::isfinite(runs.ratio_ci.high)) result.ratio_ci.reset();
  if (a.size() != b.size()) {
    result.reason +=
        fmt::format(" (run counts differ: {} baseline, {} candidate)", a.size(), b.size());
  }

  // The optional extra floor (--min-change): a change this small in absolute terms is not
  // worth a verdict to this user, whatever the statistics say.
  const double change_ns = std::abs(runs.ratio - 1.0) * result.baseline->median * baseline_ns;
  if (options.min_change_ns > 0.0 && change_ns < options.min_change_ns &&
      (result.verdict == Verdict::regressed || result.verdict == Verdict::improved)) {
    result.verdict = Verdict::same;
    result.reason = fmt::format("median {} ({}), below the {} set by --min-change",
                                text::format_change(runs.ratio), text::format_whole_ns(change_ns),
                                text::format_whole_ns(options.min_change_ns));
  }
  return result;
}

bool timers_differ(const Entry& baseline, const Entry& candidate) {
  return !baseline.timer.empty() && !candidate.timer.empty() && baseline.timer != candidate.timer;
}

bool holds_host_time(const Entry& entry) {
  return entry.timer == "nvtx-range";
}

bool holds_cpu_time(const Entry& entry) {
  return entry.timer == "google-benchmark" || entry.timer == "nvbench-cpu-only";
}

}  // namespace kerntime::compare_detail
