// SPDX-License-Identifier: Apache-2.0
// Merging the reports the processes of one `kerntime run` wrote: every process is a run of each
// entry it recorded, and their trace sections become one (counts added, per-kernel summaries
// combined exactly where the statistic allows it, records side by side on the shared clock).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "report/entry_runs.hpp"
#include "report/measurement_merge.hpp"

namespace kerntime {
namespace {

void add_counts(TraceCounts& into, const TraceCounts& from) {
  into.dropped_records += from.dropped_records;
  into.zero_timestamp_records += from.zero_timestamp_records;
  into.inverted_timestamp_records += from.inverted_timestamp_records;
  into.unattributed_kernels += from.unattributed_kernels;
  into.kernels_before_launch += from.kernels_before_launch;
  into.unknown_records += from.unknown_records;
  into.kernels += from.kernels;
  into.memcpys += from.memcpys;
  into.memsets += from.memsets;
  into.api_calls += from.api_calls;
}

// Count, total, extremes and the standard deviation combine exactly (pooled variance); the
// median does not, so it comes from the merged entry's samples when the report has one.
void add_row(KernelSummary& into, const KernelSummary& row) {
  const double n1 = static_cast<double>(into.instances);
  const double n2 = static_cast<double>(row.instances);
  const double n = n1 + n2;
  const double mean = n > 0 ? (into.average_ns * n1 + row.average_ns * n2) / n : 0.0;
  const auto squares = [](const KernelSummary& r, double count, double pooled_mean) {
    const double s = r.stddev_ns.value_or(0.0);
    const double d = r.average_ns - pooled_mean;
    return (count > 1 ? (count - 1) * s * s : 0.0) + count * d * d;
  };
  const double sum_squares = squares(into, n1, mean) + squares(row, n2, mean);
  into.median_ns = n > 0 ? (into.median_ns * n1 + row.median_ns * n2) / n : 0.0;
  into.instances += row.instances;
  into.total_ns += row.total_ns;
  into.average_ns = mean;
  into.min_ns = std::min(into.min_ns, row.min_ns);
  into.max_ns = std::max(into.max_ns, row.max_ns);
  if (n >= 2) into.stddev_ns = std::sqrt(sum_squares / (n - 1));
  into.mixed_launch_config = into.mixed_launch_config || row.mixed_launch_config ||
                             into.grid != row.grid || into.block != row.block;
}

// The report's entry of an NVTX range row: its host times (inject/run_recorder.cpp names it).
std::string range_entry_name(const RangeSummary& row) {
  return "nvtx:" + (row.domain.empty() ? std::string{} : row.domain + ":") + row.name;
}

// Counts and totals add up; the median comes from the merged entry's pooled samples.
void merge_range_rows(std::vector<RangeSummary>& merged, const std::vector<RangeSummary>& rows) {
  for (const RangeSummary& row : rows) {
    const auto same = std::find_if(merged.begin(), merged.end(), [&](const RangeSummary& r) {
      return r.name == row.name && r.domain == row.domain;
    });
    if (same == merged.end()) {
      merged.push_back(row);
      continue;
    }
    const double n1 = static_cast<double>(same->instances);
    const double n2 = static_cast<double>(row.instances);
    same->median_ns = n1 + n2 > 0 ? (same->median_ns * n1 + row.median_ns * n2) / (n1 + n2) : 0.0;
    same->instances += row.instances;
    same->total_ns += row.total_ns;
    same->kernels += row.kernels;
    same->kernel_time_ns += row.kernel_time_ns;
    same->self_kernels += row.self_kernels;
    same->self_kernel_time_ns += row.self_kernel_time_ns;
  }
}

struct SharedStrings {
  std::vector<std::shared_ptr<const void>> parts;
};

TraceSection merge_sections(const std::vector<const TraceSection*>& sections,
                            const std::vector<Entry>& entries) {
  TraceSection merged;
  auto strings = std::make_shared<SharedStrings>();
  std::unordered_map<std::string, std::size_t> rows;
  merged.origin_ns = UINT64_MAX;
  for (const TraceSection* section : sections) {
    add_counts(merged.counts, section->counts);
    merged.omitted_records += section->omitted_records;
    merged.origin_ns = std::min(merged.origin_ns, section->origin_ns);
    merged.kernels.insert(merged.kernels.end(), section->kernels.begin(), section->kernels.end());
    merged.memcpys.insert(merged.memcpys.end(), section->memcpys.begin(), section->memcpys.end());
    merged.memsets.insert(merged.memsets.end(), section->memsets.begin(), section->memsets.end());
    merged.api_calls.insert(merged.api_calls.end(), section->api_calls.begin(),
                            section->api_calls.end());
    strings->parts.push_back(section->strings);
    merge_range_rows(merged.range_summary, section->range_summary);
    for (const KernelSummary& row : section->kernel_summary) {
      const auto [it, inserted] = rows.emplace(row.name, merged.kernel_summary.size());
      if (inserted) {
        merged.kernel_summary.push_back(row);
      } else {
        add_row(merged.kernel_summary[it->second], row);
      }
    }
  }
  merged.strings = strings;
  const auto by_start = [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; };
  std::stable_sort(merged.kernels.begin(), merged.kernels.end(), by_start);
  std::stable_sort(merged.memcpys.begin(), merged.memcpys.end(), by_start);
  std::stable_sort(merged.memsets.begin(), merged.memsets.end(), by_start);
  std::stable_sort(merged.api_calls.begin(), merged.api_calls.end(), by_start);
  std::uint64_t all_ns = 0;
  for (const KernelSummary& row : merged.kernel_summary)
    all_ns += row.total_ns;
  for (KernelSummary& row : merged.kernel_summary) {
    row.time_percent = all_ns > 0 ? 100.0 * static_cast<double>(row.total_ns) / all_ns : 0.0;
    const auto entry = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
      return e.name == row.name && e.timer == "cupti-kernel";
    });
    if (entry != entries.end() && !entry->samples.empty()) row.median_ns = entry->statistics.median;
  }
  for (RangeSummary& row : merged.range_summary) {
    const auto entry = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
      return e.name == range_entry_name(row) && e.timer == "nvtx-range";
    });
    if (entry != entries.end() && !entry->samples.empty()) row.median_ns = entry->statistics.median;
  }
  std::sort(merged.kernel_summary.begin(), merged.kernel_summary.end(),
            [](const KernelSummary& a, const KernelSummary& b) {
              return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
            });
  return merged;
}

}  // namespace

Report merge_process_reports(const std::vector<Report>& reports,
                             const std::vector<std::string>& sources) {
  if (!sources.empty() && sources.size() != reports.size()) {
    throw Error("merge_process_reports: " + std::to_string(sources.size()) + " source names for " +
                std::to_string(reports.size()) + " reports.");
  }
  Report merged;
  if (reports.empty()) return merged;
  merged.environment = reports.front().environment;
  std::unordered_map<std::string, std::size_t> index;
  std::vector<const TraceSection*> sections;
  std::vector<std::vector<const MeasurementInfo*>> measurements;  // per merged entry, per run
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const Report& report = reports[r];
    const std::string source = r < sources.size() ? sources[r] : "process " + std::to_string(r + 1);
    for (const std::string& warning : report.warnings) {
      const std::string text = reports.size() == 1 ? warning : source + ": " + warning;
      if (std::find(merged.warnings.begin(), merged.warnings.end(), text) ==
          merged.warnings.end()) {
        merged.warnings.push_back(text);
      }
    }
    if (report.trace) sections.push_back(&*report.trace);
    for (const Entry& entry : report.entries) {
      if (entry.samples.empty()) continue;
      const auto [it, inserted] = index.emplace(entry.name, merged.entries.size());
      if (inserted) {
        Entry copy = entry;
        copy.samples.clear();
        copy.run_sizes.clear();
        report::append_runs(copy, entry);
        merged.entries.push_back(std::move(copy));
        measurements.push_back({entry.measurement.get()});
        continue;
      }
      Entry& target = merged.entries[it->second];
      if (target.device != entry.device) target.device.reset();
      report::append_runs(target, entry);
      measurements[it->second].push_back(entry.measurement.get());
    }
  }
  StatisticsOptions statistics;
  statistics.median_interval = false;
  for (std::size_t i = 0; i < merged.entries.size(); ++i) {
    Entry& entry = merged.entries[i];
    if (entry.run_sizes.size() == 1) entry.run_sizes.clear();
    // Several runs are compared as runs; one run's summary would speak for all of them.
    if (!entry.run_sizes.empty()) entry.summary_only.reset();
    entry.statistics = compute_statistics(entry.samples, statistics);
    entry.measurement = report::merge_measurements(measurements[i], entry.statistics);
  }
  if (!sections.empty()) merged.trace = merge_sections(sections, merged.entries);
  return merged;
}

}  // namespace kerntime
