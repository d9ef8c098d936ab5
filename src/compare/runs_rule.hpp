// SPDX-License-Identifier: Apache-2.0
// The verdict for one entry measured in several processes ("runs") per side. The process is the
// unit: a memory-bound kernel of a few microseconds can land on one of two levels 5-7 % apart
// from one process to the next, which no statistic of one process can see (docs/ci.md, "Noise
// between processes"). So the rule compares per-run medians and decides at the level their
// spread calls for.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <kerntime/compare.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime::compare_detail {

/// One side of an entry: its runs (processes), each the samples of one run in nanoseconds.
using Runs = std::vector<std::vector<double>>;

/// The knobs of compare_runs(); the defaults are the ones docs/ci.md justifies.
struct RunsRuleOptions {
  double threshold = 0.05;  ///< the smallest relative change worth a verdict
  double alpha = 0.01;      ///< significance level; the interval is at 1 - alpha
  /// The timer's quantum in ns (CUPTI timestamps: 32 ns at worst). Floors the sampling error of
  /// a run's median, so that runs whose quantized medians agree exactly do not claim zero noise.
  double resolution_ns = 32.0;
  /// With one run per side the spread between processes cannot be seen; a change is then
  /// attributed to the code only beyond this allowance: the larger of an absolute shift (the
  /// largest measured between processes on the H200 was 0.32 us, for 4-7 us memory-bound
  /// kernels) and a relative one (kernels over 15 us moved by at most 1.1 %), both with margin.
  double one_run_shift_ns = 400.0;
  double one_run_shift_fraction = 0.015;
  /// The fraction for entries whose samples are host time (`kerntime run`'s NVTX ranges): a
  /// whole process's host speed moves far more than a kernel's GPU time. The same small PyTorch
  /// step's `nvtx:step` read -9.4 % and +16.6 % in two pairs of processes on an H200
  /// (docs/run.md).
  static constexpr double kHostTimeShiftFraction = 0.25;
  /// The fraction for CPU benchmarks' times (Google Benchmark, NVBench's cpu_only): none. A real
  /// Google Benchmark program (tests/compare/gbench_program), 10 processes of 20 repetitions:
  /// process medians moved from their median by up to 3.3 % on a quiet 2-core CI machine and
  /// 8.1 % on an H200 host (docs/ci.md). An allowance covering the host (8 %) would leave two
  /// identical files `inconclusive` at a 5 % threshold, and shifts under the threshold cannot
  /// make a regression; the note above the verdicts says what the host's shifts can do.
  static constexpr double kCpuTimeShiftFraction = 0.0;
};

/// What compare_runs() found. Ratios are candidate / baseline; > 1 is slower.
struct RunsComparison {
  Verdict verdict = Verdict::inconclusive;
  double ratio = 1.0;           ///< geometric mean of candidate run medians / that of baseline
  Interval ratio_ci{1.0, 1.0};  ///< at 1 - alpha (one run per side: widened by the allowance)
  double p_value = 1.0;         ///< two-sided; pooled t on log run medians, or Mann-Whitney U
  bool exact_test = false;      ///< Mann-Whitney p and interval from the exact distribution
  std::size_t baseline_runs = 0;
  std::size_t candidate_runs = 0;
  /// False with one run per side: the within-run fallback decided, and the caller should say
  /// "one run per side" once above the table.
  bool between_runs = false;
  double degrees_of_freedom = 0.0;  ///< of the t statistic; 0 for the fallback
  /// Largest relative range of per-run medians within one side (max / min - 1); 0 when no side
  /// has two runs.
  double run_spread = 0.0;
  /// Standard deviation of one run's log median used by the test (after the floors), roughly a
  /// fraction; with one run per side, the allowance instead.
  double run_sd = 0.0;
  /// The smallest relative change that is significant at alpha with this spread and these run
  /// counts (the interval's half width): changes under it cannot be told from noise.
  double detectable_change = 0.0;
  std::string reason;  ///< one sentence
};

/// The verdict rule every path shares, from `result`'s ratio, interval and p value: a change
/// needs significance (p < alpha) and magnitude (beyond the threshold, the interval beyond half
/// of it); `same` needs the whole interval within the threshold. Sets result.verdict; returns
/// false (inconclusive) when neither applies.
bool decide_verdict(RunsComparison& result, double threshold, double alpha);

/// Decides one entry from `baseline` and `candidate` runs (each side at least one run, each run
/// at least one sample, in ns; the run counts may differ).
///
/// When at least one side has two or more runs: the per-run medians in
/// log space; ratio = exp(mean log median B - mean log median A); the variance of one run's log
/// median pooled over both sides, floored by the within-run sampling error of a median and the
/// timer quantum; a t test with n_A + n_B - 2 degrees of freedom and its 1 - alpha interval.
/// `regressed` iff p < alpha, ratio > 1 + threshold and the interval's low end > 1 + threshold/2
/// (mirrored for `improved`); `same` iff the interval lies within [1 - threshold, 1 + threshold];
/// else `inconclusive` with the spread and the detectable change in the reason.
///
/// With one run per side: the within-run Mann-Whitney U test and Hodges-Lehmann interval of the
/// ratio, widened by the allowance of the options, with the same verdict rule.
///
/// Throws kerntime::Error when a side has no runs or a run has no samples (a caller's bug).
/// Zero, negative or non-finite samples give `inconclusive` with the reason.
RunsComparison compare_runs(const Runs& baseline, const Runs& candidate,
                            const RunsRuleOptions& options = {});

}  // namespace kerntime::compare_detail
