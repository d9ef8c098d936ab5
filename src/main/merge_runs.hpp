// SPDX-License-Identifier: Apache-2.0
// The runner's reports of several processes, made into one report whose entries keep each
// process's samples as a run of their own.
#pragma once

#include <vector>

#include <kerntime/report.hpp>

namespace kerntime::bench {

/// One report with every entry of `runs`: an entry's samples are the concatenation of its
/// samples in each report that has it, in order, and `run_sizes` holds each report's sample
/// count (a report's entry that already has runs contributes its runs). Entries keep the order
/// of the reports (an entry missing from the first report goes after the entry it follows in
/// its own). The environment is the first report's; warnings are kept once each, in order. An
/// entry whose timer or unit differs from the first run's is left out, with a warning, because
/// its samples are not the same quantity. Statistics are recomputed over all samples.
Report merge_runs(const std::vector<Report>& runs);

}  // namespace kerntime::bench
