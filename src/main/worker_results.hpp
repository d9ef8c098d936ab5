// SPDX-License-Identifier: Apache-2.0
// What a child of --processes hands back to the runner: its report, and the configuration it
// was measuring when it wrote the file, so that a crash can be named. The parent merges the
// reports with report/'s merge (merge_reports) and reads its tables' rows back from the merged
// report (measurements_of).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <kerntime/measurement.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_transforms.hpp>

namespace kerntime::main {

struct WorkerResults {
  Report report;        ///< the configurations measured so far, in the order of the selection
  std::string running;  ///< the configuration being measured; empty once all are done
};

/// The file's text: JSON, private to the runner (parent and child are the same executable).
std::string worker_results_json(const WorkerResults& results);

/// Parses worker_results_json(); throws kerntime::Error naming `source` when it is malformed.
WorkerResults parse_worker_results(std::string_view text, const std::string& source);

/// How the runner merges runs of one configuration (its processes, its repetitions): one of
/// them may have failed, so an unmergeable run is left out with a warning, and a warning they
/// share is said once.
inline constexpr MergeRules kRunnerMerge{true, false};

/// One Measurement per headline entry of `report` (an entry with a `measurement`), in order:
/// samples and statistics from the entry, the events statistics from its "/events" twin, and
/// the rest from its measurement. The interval of the median is recomputed from the samples;
/// warnings stay in the report.
std::vector<Measurement> measurements_of(const Report& report);

}  // namespace kerntime::main
