// SPDX-License-Identifier: Apache-2.0
#include "main/repetitions.hpp"

#include <algorithm>
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>

#include "bench/stopping.hpp"
#include "main/merge_runs.hpp"
#include "main/worker_results.hpp"

namespace kerntime::bench {

Measurement combine_repetitions(const std::vector<Measurement>& repetitions) {
  if (repetitions.empty()) throw Error("combine_repetitions needs at least one measurement");
  if (repetitions.size() == 1) return repetitions.front();
  // The same path as the runs of several processes, then the runs joined into one.
  std::vector<Report> reports;
  std::vector<std::vector<Measurement>> parts;
  for (const Measurement& m : repetitions) {
    Report report;
    add_to_report(report, m);
    report.warnings.clear();
    reports.push_back(std::move(report));
    parts.push_back({m});
  }
  Report merged = merge_runs(reports);
  for (Entry& entry : merged.entries)
    entry.run_sizes.clear();
  Measurement combined = combine_measurements(parts, merged).front();
  combined.samples.clear();
  combined.warnings.clear();
  for (const Measurement& m : repetitions) {
    combined.samples.insert(combined.samples.end(), m.samples.begin(), m.samples.end());
    for (const std::string& w : m.warnings) {
      if (std::find(combined.warnings.begin(), combined.warnings.end(), w) ==
          combined.warnings.end()) {
        combined.warnings.push_back(w);
      }
    }
  }
  // merge_runs names the entry; add_to_report will name the measurement again.
  for (const std::string& w : merged.warnings) {
    const std::string prefix = combined.name + ": ";
    combined.warnings.push_back(w.rfind(prefix, 0) == 0 ? w.substr(prefix.size()) : w);
  }
  std::vector<double> sorted = combined.headline_ns;
  std::sort(sorted.begin(), sorted.end());
  combined.median_ci_half_width = median_ci_half_width(sorted);
  return combined;
}

}  // namespace kerntime::bench
