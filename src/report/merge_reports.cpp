// SPDX-License-Identifier: Apache-2.0
// Merging reports of repeated runs for `kerntime report a.json b.json`: each report becomes one
// run (or, when it already holds several, its runs) of every entry it measured, so that a
// baseline can show the noise between processes (docs/ci.md).
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "report/entry_runs.hpp"
#include "report/environment_diff.hpp"
#include "report/measurement_merge.hpp"

namespace kerntime {
namespace {

std::string source_of(const std::vector<std::string>& sources, std::size_t i) {
  return i < sources.size() ? sources[i] : "report " + std::to_string(i + 1);
}

void append_unique(std::vector<std::string>& list, const std::string& text) {
  for (const std::string& existing : list) {
    if (existing == text) return;
  }
  list.push_back(text);
}

// Two reports with the same creation time and the same samples in every entry are one
// measurement given twice: merging them would double its weight and fake a second process.
bool same_measurement(const Report& a, const Report& b) {
  if (a.environment.created_utc.empty() || a.environment.created_utc != b.environment.created_utc ||
      a.entries.size() != b.entries.size() || a.entries.empty()) {
    return false;
  }
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    if (a.entries[i].name != b.entries[i].name || a.entries[i].samples != b.entries[i].samples) {
      return false;
    }
  }
  return true;
}

using report::append_runs;

}  // namespace

Report merge_reports(const std::vector<Report>& reports, const std::vector<std::string>& sources,
                     const MergeRules& rules) {
  if (!sources.empty() && sources.size() != reports.size()) {
    throw Error("merge_reports: " + std::to_string(sources.size()) + " source names for " +
                std::to_string(reports.size()) + " reports.");
  }
  Report merged;
  if (reports.empty()) return merged;
  if (reports.size() == 1) return reports.front();  // nothing to merge: unchanged
  merged.environment = reports.front().environment;
  // No trace section: separate runs share no clock and no record ids to line records up by
  // (merge_process_reports() merges those of one program's processes). `kerntime report` says
  // on standard error which files' traces were dropped.
  std::vector<std::string> first_source;  // which report each merged entry came from first
  // Each merged entry's measurement in every run (null: a run without one).
  std::vector<std::vector<const MeasurementInfo*>> measurements;

  for (std::size_t r = 0; r < reports.size(); ++r) {
    const Report& report = reports[r];
    const std::string source = source_of(sources, r);
    for (std::size_t earlier = 0; earlier < r; ++earlier) {
      if (same_measurement(reports[earlier], report)) {
        throw Error(source + " holds the same measurement as " + source_of(sources, earlier) +
                    " (same creation time, same samples); each run must be merged once.");
      }
    }
    if (r > 0) {
      const auto models =
          report::gpu_model_differences(reports.front().environment, report.environment);
      if (!models.empty()) {
        throw Error(source + " was measured on another GPU than " + source_of(sources, 0) + ": " +
                    models.front() + " Merge only reports of one GPU model into a baseline.");
      }
      for (const std::string& difference :
           compare_environments(reports.front().environment, report.environment)) {
        append_unique(merged.warnings,
                      source + " compared with " + source_of(sources, 0) + ": " + difference);
      }
    }
    for (const std::string& warning : report.warnings) {
      append_unique(merged.warnings,
                    rules.name_warning_sources ? source + ": " + warning : warning);
    }
    // Where this report's next new entry goes: after the last entry it shared with `merged`,
    // so that one missing from an earlier run keeps its place; at the end before any.
    std::optional<std::size_t> insert_at;
    for (const Entry& entry : report.entries) {
      if (entry.samples.empty() && !rules.leave_out_unmergeable) {
        throw Error(source + ": entry \"" + entry.name +
                    "\" has no samples; a run without samples cannot be merged (was the "
                    "benchmark interrupted?).");
      }
      const auto same_name = [&entry](const Entry& e) { return e.name == entry.name; };
      const auto found = std::find_if(merged.entries.begin(), merged.entries.end(), same_name);
      if (found == merged.entries.end()) {
        const auto at =
            static_cast<std::ptrdiff_t>(insert_at ? (*insert_at)++ : merged.entries.size());
        Entry copy = entry;
        copy.samples.clear();
        copy.run_sizes.clear();
        append_runs(copy, entry);
        merged.entries.insert(merged.entries.begin() + at, std::move(copy));
        first_source.insert(first_source.begin() + at, source);
        measurements.insert(measurements.begin() + at, {entry.measurement.get()});
        continue;
      }
      const auto i = static_cast<std::size_t>(found - merged.entries.begin());
      insert_at = i + 1;
      Entry& target = *found;
      if (target.unit != entry.unit || target.timer != entry.timer) {
        const std::string what = source + ": entry \"" + entry.name + "\" was measured in unit '" +
                                 entry.unit + "' with timer '" + entry.timer + "', but in " +
                                 first_source[i] + " in unit '" + target.unit + "' with timer '" +
                                 target.timer + "'";
        if (!rules.leave_out_unmergeable) {
          throw Error(what + "; only like measurements can be merged.");
        }
        append_unique(merged.warnings, what + "; its samples are left out.");
        continue;
      }
      if (target.device != entry.device) target.device.reset();
      append_runs(target, entry);
      measurements[i].push_back(entry.measurement.get());
    }
  }
  for (std::size_t i = 0; i < merged.entries.size(); ++i) {
    Entry& entry = merged.entries[i];
    if (entry.run_sizes.size() == 1) entry.run_sizes.clear();  // one run
    // Several runs are compared as runs; one run's summary would speak for all of them.
    if (!entry.run_sizes.empty()) entry.summary_only.reset();
    entry.statistics = compute_statistics(entry.samples);
    entry.measurement = report::merge_measurements(measurements[i], entry.statistics);
  }
  return merged;
}

}  // namespace kerntime
