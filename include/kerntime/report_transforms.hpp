// SPDX-License-Identifier: Apache-2.0
// Transforms of the report model: a trace attached to a report, reports of repeated runs merged.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <kerntime/export.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>

namespace kerntime {

/// What attach_trace() puts into a report.
struct TraceReportOptions {
  /// The per-kernel summary (summarize_kernels() with these options).
  bool kernel_summary = true;
  KernelSummaryOptions summary;
  /// Raw kernel, copy, memset and API call records listed, at most this many of each kind (the
  /// earliest); the rest are counted in TraceSection::omitted_records. 0 lists none. A kernel
  /// record takes up to 1 KB of the written JSON, an API call about 200 bytes.
  std::size_t max_records_per_kind = 100'000;
  /// List the API call records too (what cuda_api_sum of a report needs); they are counted in
  /// any case.
  bool api_calls = true;
};

/// Sets `report.trace` from `trace` (replacing any earlier one) and appends the trace's
/// warnings (dropped records among them) to `report.warnings`, skipping duplicates, so that a
/// loss shows wherever the report is read.
KERNTIME_API void attach_trace(Report& report, const Trace& trace,
                               const TraceReportOptions& options = {});

/// How merge_reports() treats what it cannot merge, and whose warnings it names.
struct MergeRules {
  /// false (`kerntime report`, whose files a person chose): an entry without samples, or a
  /// same-name entry with another unit or timer than the first run's, is an error. true (the
  /// runner's --processes, one of which may have failed): an entry without samples adds no
  /// run, and a run with another unit or timer is left out with a warning.
  bool leave_out_unmergeable = false;
  /// true: each report's warnings are prefixed with its source's name; false: each is said
  /// once, as written (processes of one run repeat the same warnings).
  bool name_warning_sources = true;
};

/// Merges reports of repeated runs (processes) into one, keeping the runs apart: every report
/// contributes one run to each entry it measured (a report that already holds several runs
/// contributes each of them), in report order. Entries are in first-seen order, except that
/// an entry new in a later report goes right after the last entry it shared before it there
/// (one missing from an earlier run keeps its place). Statistics are recomputed over all samples,
/// and the engine's measurements merged (docs/report-format.md). The environment is the first
/// report's; other environment differences and every report's warnings become warnings of the
/// result. Trace sections are not merged (separate runs share no clock): the result of several
/// reports has none, and `kerntime report` says so on standard error. One report is returned
/// unchanged. `sources` names the reports in messages (same length as `reports`, or empty).
///
/// Throws kerntime::Error, naming the source, when reports were measured on different GPU
/// models or compute capabilities, when two reports are the same measurement (same creation
/// time and samples), and, unless `rules` leave them out, when an entry has no samples or
/// same-name entries differ in unit or timer.
KERNTIME_API Report merge_reports(const std::vector<Report>& reports,
                                  const std::vector<std::string>& sources = {},
                                  const MergeRules& rules = {});

/// Merges the reports that the processes of one program wrote (`kerntime run`: one per
/// process): each process becomes a run of every entry it recorded, entries in first-seen
/// order, warnings prefixed with the process's `sources` name. Unlike merge_reports(), the
/// processes may have used different GPUs, and their trace sections are merged: counts added,
/// records listed side by side (CUPTI's clock is shared by the processes of one machine), and
/// per-kernel summaries combined: instances, total, min, max, average and standard deviation
/// exactly; the median from the merged entry's samples. The first report's environment is kept.
KERNTIME_API Report merge_process_reports(const std::vector<Report>& reports,
                                          const std::vector<std::string>& sources = {});

/// Differences between two measurement environments that make timings incomparable: GPU model,
/// compute capability, peak SM and memory clocks, ECC, driver, CUDA runtime, kerntime version.
/// Fields unknown on either side (0 or empty) are not compared. One sentence per difference.
KERNTIME_API std::vector<std::string> compare_environments(const Environment& baseline,
                                                           const Environment& candidate);

}  // namespace kerntime
