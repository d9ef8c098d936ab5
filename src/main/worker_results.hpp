// SPDX-License-Identifier: Apache-2.0
// What a child of --processes hands back to the runner: its report, the parts of its
// measurements that a report does not hold (declared work, stop reason, clock), and the
// configuration it was measuring when it wrote the file, so that a crash can be named.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <kerntime/measurement.hpp>
#include <kerntime/report.hpp>

namespace kerntime::bench {

struct WorkerResults {
  Report report;  ///< the configurations measured so far, in the order of the selection
  /// The same measurements without their samples (the report holds those).
  std::vector<Measurement> measurements;
  std::string running;  ///< the configuration being measured; empty once all are done
};

/// The file's text: JSON, private to the runner (parent and child are the same executable).
std::string worker_results_json(const WorkerResults& results);

/// Parses worker_results_json(); throws kerntime::Error naming `source` when it is malformed.
WorkerResults parse_worker_results(std::string_view text, const std::string& source);

/// One measurement per name over the children's: samples and statistics from `merged` (the
/// children's reports merged into runs), work, batch and clock from the first child that has
/// it, the invalid and throttled counts and the wall time summed, the SM clock the median of the
/// children's, and the stop reason the least settled one (timeout, then max-samples, noise,
/// stable, fixed-count). Throughput is recomputed from the merged headline median.
std::vector<Measurement> combine_measurements(
    const std::vector<std::vector<Measurement>>& per_process, const Report& merged);

}  // namespace kerntime::bench
