// SPDX-License-Identifier: Apache-2.0
// The verdict for an entry whose file holds summaries instead of samples (NVBench's `--json`
// without `--jsonbin`): a sample size, a mean and a relative standard deviation per side. They
// are the figures nvbench_compare.py judges; this rule judges them as compare_runs() judges one
// run per side, so that the verdicts mean the same with samples and without.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compare/runs_rule.hpp"

namespace kerntime::compare_detail {

/// One side of a summaries-only pair.
struct SummaryFigures {
  std::uint64_t count = 0;  ///< samples the tool took
  double mean_ns = 0.0;
  std::optional<double> relative_stdev;  ///< absent when the tool wrote none
};

/// Decides from summaries. The ratio is of the means. The interval of its logarithm is Welch's:
/// each side's log mean has variance (relative stdev)^2 / count (the delta method), the noise
/// floored by the timer quantum; Welch-Satterthwaite degrees of freedom. It is then widened by the
/// options' allowance for a shift between processes, as for one run per side, and
/// decide_verdict() applies. A side without noise borrows the other's, as nvbench_compare.py
/// does; without noise on either side, or with fewer than 2 samples, the entry is
/// inconclusive. `source` names the summaries in the reason ("NVBench's summaries"), which also
/// gives nvbench_compare.py's own status (SAME, FAST, SLOW, or ???? without noise).
RunsComparison compare_summaries(const SummaryFigures& baseline, const SummaryFigures& candidate,
                                 const RunsRuleOptions& options, const std::string& source);

}  // namespace kerntime::compare_detail
