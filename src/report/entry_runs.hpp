// SPDX-License-Identifier: Apache-2.0
// How merged reports keep runs apart: each source entry's runs are appended to the merged
// entry's samples, with one run size each (merge_reports and merge_process_reports).
#pragma once

#include <vector>

#include <kerntime/report.hpp>

namespace kerntime::report {

/// The runs of `entry` appended to `target`'s samples and run sizes. `target` starts as a copy
/// of its first source with no samples and no run sizes; callers clear a single run's size at
/// the end (one run is written without sizes). An entry without samples adds no run.
inline void append_runs(Entry& target, const Entry& entry) {
  if (entry.samples.empty()) return;  // no run: a run holds at least one sample
  // A column stays only while every run has it; the first run's are the copy's own.
  if (!target.samples.empty()) {
    std::vector<SampleColumn> kept;
    for (SampleColumn& column : target.sample_columns) {
      for (const SampleColumn& other : entry.sample_columns) {
        if (other.name != column.name || other.values.size() != entry.samples.size()) continue;
        column.values.insert(column.values.end(), other.values.begin(), other.values.end());
        kept.push_back(std::move(column));
        break;
      }
    }
    target.sample_columns = std::move(kept);
  }
  for (const std::vector<double>& run : entry.runs()) {
    target.samples.insert(target.samples.end(), run.begin(), run.end());
    target.run_sizes.push_back(run.size());
  }
}

}  // namespace kerntime::report
