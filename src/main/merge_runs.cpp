// SPDX-License-Identifier: Apache-2.0
#include "main/merge_runs.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include <kerntime/statistics.hpp>

namespace kerntime::bench {
namespace {

void add_warning(Report& report, const std::string& warning) {
  if (std::find(report.warnings.begin(), report.warnings.end(), warning) == report.warnings.end()) {
    report.warnings.push_back(warning);
  }
}

// An entry's runs; none when it has no samples (a run holds at least one).
std::vector<std::size_t> runs_of(const Entry& entry) {
  if (!entry.run_sizes.empty()) return entry.run_sizes;
  if (entry.samples.empty()) return {};
  return {entry.samples.size()};
}

}  // namespace

Report merge_runs(const std::vector<Report>& runs) {
  Report merged;
  if (runs.empty()) return merged;
  merged.environment = runs.front().environment;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const Report& run = runs[r];
    for (const std::string& w : run.warnings)
      add_warning(merged, w);
    // Where this report's next new entry goes: after the last entry it shared with `merged`.
    std::size_t insert_at = 0;
    for (const Entry& entry : run.entries) {
      auto same_name = [&entry](const Entry& e) { return e.name == entry.name; };
      auto found = std::find_if(merged.entries.begin(), merged.entries.end(), same_name);
      if (found == merged.entries.end()) {
        Entry copy = entry;
        copy.run_sizes = runs_of(entry);
        merged.entries.insert(merged.entries.begin() + static_cast<std::ptrdiff_t>(insert_at),
                              std::move(copy));
        ++insert_at;
        continue;
      }
      insert_at = static_cast<std::size_t>(found - merged.entries.begin()) + 1;
      if (found->timer != entry.timer || found->unit != entry.unit) {
        add_warning(merged, entry.name + ": run " + std::to_string(r + 1) +
                                " measured with timer '" + entry.timer + "' (" + entry.unit +
                                "), the first with '" + found->timer + "' (" + found->unit +
                                "); its samples are left out");
        continue;
      }
      if (found->device != entry.device) found->device.reset();
      found->samples.insert(found->samples.end(), entry.samples.begin(), entry.samples.end());
      const std::vector<std::size_t> sizes = runs_of(entry);
      found->run_sizes.insert(found->run_sizes.end(), sizes.begin(), sizes.end());
    }
  }
  for (Entry& entry : merged.entries) {
    if (entry.run_sizes.size() <= 1) entry.run_sizes.clear();  // one run: the default
    entry.statistics = compute_statistics(entry.samples);
  }
  return merged;
}

}  // namespace kerntime::bench
