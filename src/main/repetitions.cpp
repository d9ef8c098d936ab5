// SPDX-License-Identifier: Apache-2.0
#include "main/repetitions.hpp"

#include <algorithm>
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_transforms.hpp>

#include "main/worker_results.hpp"

namespace kerntime::main {

Measurement combine_repetitions(const std::vector<Measurement>& repetitions) {
  if (repetitions.empty()) throw Error("combine_repetitions needs at least one measurement");
  if (repetitions.size() == 1) return repetitions.front();
  // The merge of the runs of several processes, then the runs joined into one.
  std::vector<Report> reports;
  std::vector<std::string> sources;
  for (const Measurement& m : repetitions) {
    Report report;
    add_to_report(report, m);
    report.warnings.clear();
    reports.push_back(std::move(report));
    sources.push_back("repetition " + std::to_string(sources.size() + 1));
  }
  Report merged = merge_reports(reports, sources, kRunnerMerge);
  for (Entry& entry : merged.entries)
    entry.run_sizes.clear();
  Measurement combined = measurements_of(merged).front();
  for (const Measurement& m : repetitions) {
    combined.samples.insert(combined.samples.end(), m.samples.begin(), m.samples.end());
    for (const std::string& w : m.warnings) {
      if (std::find(combined.warnings.begin(), combined.warnings.end(), w) ==
          combined.warnings.end()) {
        combined.warnings.push_back(w);
      }
    }
  }
  // What the merge said (a repetition left out); add_to_report will name the measurement.
  combined.warnings.insert(combined.warnings.end(), merged.warnings.begin(), merged.warnings.end());
  return combined;
}

}  // namespace kerntime::main
