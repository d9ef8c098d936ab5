// SPDX-License-Identifier: Apache-2.0
#include "inject/run_recorder.hpp"

#include <algorithm>
#include <utility>

#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/trace.hpp>

#include "trace/scope_table.hpp"

namespace kerntime::inject {
namespace {

// Launches inside NVTX ranges waiting for their kernel record: more than a program can have in
// flight, and 16 MiB at most, so a graph launch whose kernels keep its entry cannot grow it.
constexpr std::size_t kMaxPendingLaunches = std::size_t{1} << 20;

// The median is what the tables show; its interval would cost a bootstrap per kernel name at
// every checkpoint, and `kerntime report` recomputes it when asked.
StatisticsOptions entry_statistics() {
  StatisticsOptions options;
  options.median_interval = false;
  return options;
}

std::string range_display_name(std::string_view domain, std::string_view name) {
  std::string text = "nvtx:";
  if (!domain.empty()) {
    text += domain;
    text += ':';
  }
  text += name.empty() ? std::string_view{"(unnamed)"} : name;
  return text;
}

}  // namespace

RunRecorder::RunRecorder(const RunSettings& settings)
    : settings_(settings), windows_(settings.capture == CaptureRange::whole_run) {
  if (!settings_.kernel_filter.empty()) filter_.emplace(settings_.kernel_filter);
}

bool RunRecorder::selected(std::uint32_t name_id) {
  if (!filter_) return true;
  if (selected_.size() <= name_id) selected_.resize(name_id + 1);
  std::optional<bool>& cached = selected_[name_id];
  if (!cached) cached = std::regex_search(std::string{names_.demangled(name_id)}, *filter_);
  return *cached;
}

void RunRecorder::add_kernel(const trace::RawKernel& kernel, std::uint32_t name_id) {
  auto [it, inserted] = kernels_.try_emplace(name_id, settings_.samples_per_kernel);
  KernelStats& stats = it->second;
  stats.durations.add(static_cast<double>(kernel.duration_ns()));
  if (inserted) {
    stats.grid = kernel.grid;
    stats.block = kernel.block;
    stats.device = kernel.device;
  } else {
    stats.mixed_launch_config =
        stats.mixed_launch_config || stats.grid != kernel.grid || stats.block != kernel.block;
    stats.mixed_devices = stats.mixed_devices || stats.device != kernel.device;
  }
}

void RunRecorder::append(trace::RecordBatch batch) {
  std::lock_guard lock{mutex_};
  kernels_received_ += batch.kernels.size();
  api_calls_received_ += batch.api_calls.size();
  memcpys_received_ += batch.memcpys.size();
  memsets_received_ += batch.memsets.size();
  if (!ranges_.empty()) {
    for (const trace::RawScopeTag& tag : batch.scope_tags) {
      if (range_of_launch_.emplace(tag.correlation_id, tag.scope_id).second) {
        launch_order_.push_back(tag.correlation_id);
      }
    }
    while (range_of_launch_.size() > kMaxPendingLaunches) {
      range_of_launch_.erase(launch_order_[launch_order_head_++]);
    }
    if (launch_order_head_ > launch_order_.size() / 2) {
      launch_order_.erase(launch_order_.begin(),
                          launch_order_.begin() + static_cast<std::ptrdiff_t>(launch_order_head_));
      launch_order_head_ = 0;
    }
  }

  // Kernels go to the timeline only while it has room: past it, none is copied.
  const std::size_t room = timeline_kept_ >= settings_.timeline_records
                               ? 0
                               : settings_.timeline_records - timeline_kept_;
  std::vector<trace::RawKernel> recorded;
  recorded.reserve(std::min(room, batch.kernels.size()));
  const auto keep = [&](const trace::RawKernel& kernel) {
    if (recorded.size() < room) recorded.push_back(kernel);
  };
  for (const trace::RawKernel& kernel : batch.kernels) {
    if (kernel.start_ns == 0 || kernel.end_ns < kernel.start_ns) {
      keep(kernel);  // the timeline counts it as a loss; no duration to add
      continue;
    }
    if (!windows_.contains(kernel.start_ns)) {
      ++kernels_outside_capture_;
      continue;
    }
    const std::uint32_t name_id = names_.intern(kernel.name);
    if (!selected(name_id)) {
      ++kernels_filtered_;
      continue;
    }
    add_kernel(kernel, name_id);
    keep(kernel);
    if (const auto it = range_of_launch_.find(kernel.correlation_id);
        it != range_of_launch_.end()) {
      RangeStats& range = ranges_[it->second - 1];
      ++range.kernels;
      range.kernel_ns += static_cast<double>(kernel.duration_ns());
      // A graph launch has one correlation id for all its kernels; others have one kernel.
      if (kernel.graph_id == 0) range_of_launch_.erase(it);
    }
  }
  batch.kernels = std::move(recorded);
  keep_for_timeline(batch);
}

// The first records of each kind go to the timeline in full; later ones are only counted.
void RunRecorder::keep_for_timeline(trace::RecordBatch& batch) {
  const std::size_t limit = settings_.timeline_records;
  // Kernels (already cut to the room left by append()) set the budget: the API calls, copies
  // and memsets are kept alongside them.
  const std::uint64_t kept_kernels = batch.kernels.size();
  const std::size_t other_limit = limit * 4;
  const auto cut_other = [&](auto& records) {
    if (records.size() > other_limit) records.resize(other_limit);
  };
  if (timeline_kept_ >= limit) {
    batch.api_calls.clear();
    batch.memcpys.clear();
    batch.memsets.clear();
    batch.synchronizations.clear();
    batch.scope_tags.clear();
  } else {
    cut_other(batch.api_calls);
    cut_other(batch.memcpys);
    cut_other(batch.memsets);
  }
  timeline_kept_ += kept_kernels;
  if (!batch.empty()) timeline_.append(std::move(batch));
}

void RunRecorder::add_dropped(std::uint64_t records) {
  std::lock_guard lock{mutex_};
  dropped_ += records;
  timeline_.add_dropped(records);
}

void RunRecorder::add_warning(std::string message) {
  std::lock_guard lock{mutex_};
  if (std::find(warnings_.begin(), warnings_.end(), message) == warnings_.end()) {
    warnings_.push_back(std::move(message));
  }
}

std::uint64_t RunRecorder::range_id(std::string_view domain, std::string_view name) {
  std::string display = range_display_name(domain, name);
  std::lock_guard lock{mutex_};
  const auto it = range_ids_.find(display);
  if (it != range_ids_.end()) return it->second;
  ranges_.emplace_back(settings_.samples_per_kernel);
  ranges_.back().name = display;
  const std::uint64_t id = ranges_.size();
  range_ids_.emplace(std::move(display), id);
  return id;
}

void RunRecorder::add_range(std::uint64_t range_id, std::uint64_t start_ns, std::uint64_t end_ns) {
  if (end_ns < start_ns || !windows_.contains(start_ns)) return;
  std::lock_guard lock{mutex_};
  if (range_id == 0 || range_id > ranges_.size()) return;
  ranges_[range_id - 1].durations.add(static_cast<double>(end_ns - start_ns));
}

std::uint64_t RunRecorder::kernels_received() const {
  std::lock_guard lock{mutex_};
  return kernels_received_;
}

std::vector<std::pair<std::uint32_t, KernelSummary>> RunRecorder::kernel_rows() const {
  double all_ns = 0.0;
  for (const auto& [id, stats] : kernels_)
    all_ns += stats.durations.total_ns();
  std::vector<std::pair<std::uint32_t, KernelSummary>> rows;
  rows.reserve(kernels_.size());
  for (const auto& [id, stats] : kernels_) {
    const DurationAggregate& d = stats.durations;
    KernelSummary row;
    row.name = std::string{names_.demangled(id)};
    row.instances = static_cast<std::size_t>(d.count());
    row.total_ns = static_cast<std::uint64_t>(d.total_ns() + 0.5);
    row.time_percent = all_ns > 0.0 ? 100.0 * d.total_ns() / all_ns : 0.0;
    row.average_ns = d.mean_ns();
    row.median_ns = d.median_ns();
    row.min_ns = static_cast<std::uint64_t>(d.min_ns());
    row.max_ns = static_cast<std::uint64_t>(d.max_ns());
    if (d.count() >= 2) row.stddev_ns = d.stddev_ns();
    row.grid = stats.grid;
    row.block = stats.block;
    row.mixed_launch_config = stats.mixed_launch_config;
    rows.emplace_back(id, std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.total_ns != b.second.total_ns ? a.second.total_ns > b.second.total_ns
                                                  : a.second.name < b.second.name;
  });
  return rows;
}

Report RunRecorder::report(bool with_records) const {
  std::lock_guard lock{mutex_};
  Report report;
  const std::vector<std::pair<std::uint32_t, KernelSummary>> rows = kernel_rows();

  if (with_records) {
    // The timeline's records, attributed to the NVTX ranges (one scope per range name).
    trace::ScopeSnapshot scopes;
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
      scopes.names.push_back(ranges_[i].name);
      scopes.scopes.push_back({i + 1, 0, static_cast<std::uint32_t>(i), 0});
    }
    const Trace trace = timeline_.build(scopes);
    TraceReportOptions options;
    options.max_records_per_kind = settings_.timeline_records;
    options.api_calls = false;  // the timeline keeps them for its launch arrows only
    attach_trace(report, trace, options);
  } else {
    report.trace.emplace();
  }

  // Entries: kernels by total time, then NVTX ranges; a name both a kernel and a range has
  // cannot clash, ranges carry the "nvtx:" prefix.
  const StatisticsOptions statistics = entry_statistics();
  std::uint64_t kernels_recorded = 0;
  for (const auto& [id, row] : rows) {
    const KernelStats& stats = kernels_.at(id);
    Entry entry;
    entry.name = row.name;
    entry.timer = "cupti-kernel";
    if (!stats.mixed_devices && stats.device) entry.device = static_cast<int>(*stats.device);
    entry.samples = stats.durations.kept();
    entry.statistics = compute_statistics(entry.samples, statistics);
    kernels_recorded += stats.durations.count();
    if (!stats.durations.complete()) {
      report.warnings.push_back(
          "\"" + row.name + "\" ran " + std::to_string(stats.durations.count()) +
          " times; its samples are a uniform random " +
          std::to_string(stats.durations.kept().size()) +
          " of them (count, total, min, max in the kernel summary are exact)");
    }
    report.entries.push_back(std::move(entry));
  }
  for (const RangeStats& range : ranges_) {
    if (range.durations.count() == 0) continue;
    Entry entry;
    entry.name = range.name;
    entry.timer = "nvtx-range";
    entry.samples = range.durations.kept();
    entry.statistics = compute_statistics(entry.samples, statistics);
    report.entries.push_back(std::move(entry));
  }

  // The counts are of everything recorded; the section lists the first records of each kind,
  // and the rest are omitted.
  TraceSection& section = *report.trace;
  section.kernel_summary.clear();  // attach_trace's rows cover the listed records only
  section.kernel_summary.reserve(rows.size());
  for (const auto& [id, row] : rows)
    section.kernel_summary.push_back(row);
  section.counts.kernels = kernels_recorded;
  section.counts.memcpys = memcpys_received_;
  section.counts.memsets = memsets_received_;
  section.counts.api_calls = api_calls_received_;
  section.counts.dropped_records = dropped_;
  const std::uint64_t listed =
      section.kernels.size() + section.memcpys.size() + section.memsets.size();
  const std::uint64_t counted = kernels_recorded + memcpys_received_ + memsets_received_;
  section.omitted_records = counted > listed ? counted - listed : 0;

  if (kernels_outside_capture_ > 0) {
    report.warnings.push_back(std::to_string(kernels_outside_capture_) +
                              " kernels ran outside the capture range and are not counted");
  }
  if (kernels_filtered_ > 0) {
    report.warnings.push_back(std::to_string(kernels_filtered_) + " kernels did not match " +
                              "--kernel-filter '" + settings_.kernel_filter + "'");
  }
  for (const std::string& warning : warnings_)
    report.warnings.push_back(warning);
  return report;
}

}  // namespace kerntime::inject
