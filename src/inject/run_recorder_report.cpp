// SPDX-License-Identifier: Apache-2.0
// The recorder's report: entries, the per-kernel and per-range summaries, the first records.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/trace.hpp>

#include "inject/run_recorder.hpp"
#include "text/short_name.hpp"
#include "trace/scope_table.hpp"

namespace kerntime::inject {
namespace {

// The median is what the tables show; its interval would cost a bootstrap per kernel name at
// every checkpoint, and `kerntime report` recomputes it when asked.
StatisticsOptions entry_statistics() {
  StatisticsOptions options;
  options.median_interval = false;
  return options;
}

// One line for every kernel past the sample limit: PyTorch runs hundreds of kernels more often
// than that, and their names run to hundreds of characters each.
std::string sampled_warning(const std::vector<std::string_view>& kernels,
                            const RunSettings& settings) {
  constexpr std::size_t kNamed = 3;
  constexpr std::size_t kNameWidth = 60;
  std::vector<std::string> named;
  std::size_t covered = 0;  // kernels whose short name is among the named
  for (const std::string_view name : kernels) {
    std::string shown = text::short_name(name, kNameWidth);
    const bool listed = std::find(named.begin(), named.end(), shown) != named.end();
    if (!listed && named.size() == kNamed) continue;
    if (!listed) named.push_back(std::move(shown));
    ++covered;
  }
  std::string names;
  for (const std::string& name : named)
    names += (names.empty() ? "" : ", ") + name;
  if (covered < kernels.size())
    names += ", and " + std::to_string(kernels.size() - covered) + " more";
  const std::string limit = "ran more than --samples-per-kernel (" +
                            std::to_string(settings.samples_per_kernel) + ") times: ";
  return kernels.size() == 1
             ? "1 kernel " + limit +
                   "its samples are a uniform random subset; its count, total, min and max are "
                   "exact (" +
                   names + ")"
             : std::to_string(kernels.size()) + " kernels " + limit +
                   "their samples are uniform random subsets; counts, totals, min and max are "
                   "exact (" +
                   names + ")";
}

}  // namespace

RunRecorder::Figures RunRecorder::copy_figures(
    const std::vector<RangeRegistry::Range>& names) const {
  Figures figures;
  double all_ns = 0.0;
  for (const auto& [id, stats] : kernels_)
    all_ns += stats.durations.total_ns();
  figures.kernels.reserve(kernels_.size());
  for (const auto& [id, stats] : kernels_) {
    const DurationAggregate& d = stats.durations;
    KernelFigures& kernel = figures.kernels.emplace_back();
    KernelSummary& row = kernel.row;
    row.name = std::string{names_.demangled(id)};
    row.instances = static_cast<std::size_t>(d.count());
    row.total_ns = static_cast<std::uint64_t>(d.total_ns() + 0.5);
    row.time_percent = all_ns > 0.0 ? 100.0 * d.total_ns() / all_ns : 0.0;
    row.average_ns = d.mean_ns();
    kernel.complete = d.complete();
    if (!kernel.complete) row.median_ns = d.median_ns();  // the sketch's; the exact one later
    row.min_ns = static_cast<std::uint64_t>(d.min_ns());
    row.max_ns = static_cast<std::uint64_t>(d.max_ns());
    if (d.count() >= 2) row.stddev_ns = d.stddev_ns();
    row.grid = stats.grid;
    row.block = stats.block;
    row.mixed_launch_config = stats.mixed_launch_config;
    if (!stats.mixed_devices && stats.device) kernel.device = static_cast<int>(*stats.device);
    kernel.samples = d.kept();
  }
  for (std::size_t i = 0; i < ranges_.size() && i < names.size(); ++i) {
    const RangeStats& range = ranges_[i];
    if (range.durations.count() == 0 && range.kernels == 0) continue;
    RangeFigures& copy = figures.ranges.emplace_back();
    RangeSummary& row = copy.row;
    row.name = names[i].message;
    row.domain = names[i].domain;
    row.instances = range.durations.count();
    row.total_ns = static_cast<std::uint64_t>(range.durations.total_ns() + 0.5);
    copy.complete = range.durations.complete();
    if (!copy.complete) row.median_ns = range.durations.median_ns();
    row.kernels = range.kernels;
    row.kernel_time_ns = range.kernel_ns;
    row.self_kernels = range.self_kernels;
    row.self_kernel_time_ns = range.self_kernel_ns;
    copy.entry_name = names[i].name;
    copy.samples = range.durations.kept();
  }
  figures.memcpys = memcpys_received_;
  figures.memsets = memsets_received_;
  figures.api_calls = api_calls_received_;
  figures.dropped = dropped_;
  figures.outside_capture = kernels_outside_capture_;
  figures.filtered = kernels_filtered_;
  figures.ranges_forgotten = ranges_forgotten_;
  figures.api_records_stopped_after = api_records_stopped_after_;
  figures.api_records_off = api_records_off_;
  figures.warnings = warnings_;
  return figures;
}

Report RunRecorder::report(bool with_records) {
  Report report;
  Figures figures;
  {
    // Under the lock only what is copied; the statistics and the sorting come after.
    std::lock_guard lock{mutex_};
    take_finished_ranges();
    std::vector<RangeRegistry::Range> names;
    registry_.copy_new(&names, &paths_);
    if (with_records) {
      // The timeline's records, attributed to the NVTX ranges: a scope per range path, named
      // after its innermost range, inside its parent path's scope.
      trace::ScopeSnapshot scopes;
      for (const RangeRegistry::Range& range : names)
        scopes.names.push_back(range.name);
      for (std::size_t i = 0; i < paths_.size(); ++i) {
        scopes.scopes.push_back(
            {i + 1, paths_[i].parent, static_cast<std::uint32_t>(paths_[i].range - 1), 0});
      }
      const Trace trace = timeline_.build(scopes);
      TraceReportOptions options;
      options.max_records_per_kind = settings_.timeline_records;
      options.api_calls = false;  // the timeline keeps them for its launch arrows only
      attach_trace(report, trace, options);
      if (api_records_stopped_after_ > 0 || api_records_off_) {
        // Said once, with why, below: not a record CUPTI lost.
        const auto no_launch_record = [](const std::string& warning) {
          return warning.rfind("no launch API record for ", 0) == 0;
        };
        report.warnings.erase(
            std::remove_if(report.warnings.begin(), report.warnings.end(), no_launch_record),
            report.warnings.end());
      }
    } else {
      report.trace.emplace();
    }
    figures = copy_figures(names);
  }
  figures.folded = registry_.folded();

  // Kernels by total time, largest first.
  for (KernelFigures& kernel : figures.kernels) {
    if (kernel.complete) kernel.row.median_ns = median(kernel.samples);
  }
  std::sort(figures.kernels.begin(), figures.kernels.end(), [](const auto& a, const auto& b) {
    return a.row.total_ns != b.row.total_ns ? a.row.total_ns > b.row.total_ns
                                            : a.row.name < b.row.name;
  });

  // Entries: kernels by total time, then NVTX ranges; a name both a kernel and a range has
  // cannot clash, ranges carry the "nvtx:" prefix.
  const StatisticsOptions statistics = entry_statistics();
  std::uint64_t kernels_recorded = 0;
  std::vector<std::string_view> sampled;  // kernels beyond --samples-per-kernel, largest first
  for (const KernelFigures& kernel : figures.kernels) {
    Entry entry;
    entry.name = kernel.row.name;
    entry.timer = "cupti-kernel";
    if (kernel.device) entry.device = *kernel.device;
    entry.samples = kernel.samples;
    entry.statistics = compute_statistics(entry.samples, statistics);
    kernels_recorded += kernel.row.instances;
    if (!kernel.complete) sampled.push_back(kernel.row.name);
    report.entries.push_back(std::move(entry));
  }
  if (!sampled.empty()) report.warnings.push_back(sampled_warning(sampled, settings_));
  for (RangeFigures& range : figures.ranges) {
    if (range.complete) {
      range.row.median_ns = range.row.instances == 0 ? 0.0 : median(range.samples);
    }
    if (range.row.instances == 0) continue;
    Entry entry;
    entry.name = range.entry_name;
    entry.timer = "nvtx-range";
    entry.samples = std::move(range.samples);
    entry.statistics = compute_statistics(entry.samples, statistics);
    report.entries.push_back(std::move(entry));
  }

  // The counts are of everything recorded; the section lists the first records of each kind,
  // and the rest are omitted.
  TraceSection& section = *report.trace;
  section.kernel_summary.clear();  // attach_trace's rows cover the listed records only
  section.kernel_summary.reserve(figures.kernels.size());
  for (KernelFigures& kernel : figures.kernels)
    section.kernel_summary.push_back(std::move(kernel.row));
  section.counts.kernels = kernels_recorded;
  section.counts.memcpys = figures.memcpys;
  section.counts.memsets = figures.memsets;
  section.counts.api_calls = figures.api_calls;
  // A kernel without its launch record counts as unattributed when the record was lost; with
  // none asked for, none was lost.
  if (figures.api_records_off) section.counts.unattributed_kernels = 0;
  section.counts.dropped_records = figures.dropped;
  const std::uint64_t listed =
      section.kernels.size() + section.memcpys.size() + section.memsets.size();
  const std::uint64_t counted = kernels_recorded + figures.memcpys + figures.memsets;
  section.omitted_records = counted > listed ? counted - listed : 0;
  for (RangeFigures& range : figures.ranges)
    section.range_summary.push_back(std::move(range.row));
  if (figures.folded > 0) {
    report.warnings.push_back(
        std::to_string(figures.folded) + " NVTX range openings came after " +
        std::to_string(kMaxRangePaths) +
        " different nestings of ranges: their kernels count for the range itself only, not for "
        "the ranges around it");
  }

  if (figures.api_records_stopped_after > 0) {
    report.warnings.push_back(
        "API call records were kept for the program's first " +
        std::to_string(figures.api_records_stopped_after) +
        " launches, then switched off to spare it their cost: \"API calls\" counts those, and "
        "the timeline's later kernels have no launch arrow or thread (--all-api-calls records "
        "every call)");
  }
  // Only where kernels could have had a launch call: a helper process that started CUDA and
  // launched nothing (torch.compile's workers) is listed as such, with no note of its own.
  if (figures.api_records_off && !figures.kernels.empty()) {
    report.warnings.push_back(
        "no API call records were asked of CUPTI, to spare the program their cost: the report's "
        "kernels have no launch call or thread (--timeline records those of the first 2000 "
        "launches for its launch arrows, --all-api-calls every call)");
  }
  if (figures.ranges_forgotten > 0) {
    report.warnings.push_back(
        "up to " + std::to_string(figures.ranges_forgotten) +
        " kernels reached kerntime more than " + std::to_string(LaunchRanges::kSlots) +
        " CUDA calls after their launch: the NVTX ranges they ran under are unknown, and the "
        "ranges' kernel counts and times leave them out");
  }
  if (figures.outside_capture > 0) {
    report.warnings.push_back(std::to_string(figures.outside_capture) +
                              " kernels ran outside the capture range and are not counted");
  }
  if (figures.filtered > 0) {
    report.warnings.push_back(std::to_string(figures.filtered) + " kernels did not match " +
                              "--kernel-filter '" + settings_.kernel_filter + "'");
  }
  for (std::string& warning : figures.warnings)
    report.warnings.push_back(std::move(warning));
  return report;
}

}  // namespace kerntime::inject
