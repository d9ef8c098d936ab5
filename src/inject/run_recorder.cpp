// SPDX-License-Identifier: Apache-2.0
#include "inject/run_recorder.hpp"

#include <algorithm>
#include <utility>

namespace kerntime::inject {
namespace {

// Launches inside NVTX ranges waiting for their kernel record: more than a program can have in
// flight, and 40 MiB at most (a table of 2^21 16-byte slots and the order of the keys), so a
// graph launch whose kernels keep its entry cannot grow it.
constexpr std::size_t kMaxPendingLaunches = std::size_t{1} << 20;

// Kernels waiting for a tag that may come in a later buffer: a few buffers' worth (an 8 MiB
// buffer holds about 38,000 kernel records), 9 MiB at most. Kernels outside every range pass
// through and are forgotten.
constexpr std::size_t kMaxUntaggedKernels = std::size_t{1} << 17;

}  // namespace

RunRecorder::RunRecorder(const RunSettings& settings)
    : settings_(settings),
      windows_(settings.capture == CaptureRange::whole_run),
      range_of_launch_(kMaxPendingLaunches),
      untagged_(kMaxUntaggedKernels),
      timeline_full_(settings.timeline_records == 0) {
  if (!settings_.kernel_filter.empty()) filter_ = compile_kernel_filter(settings_.kernel_filter);
}

bool RunRecorder::selected(std::uint32_t name_id) {
  if (!filter_) return true;
  if (selected_.size() <= name_id) selected_.resize(name_id + 1);
  std::optional<bool>& cached = selected_[name_id];
  if (!cached) cached = std::regex_match(std::string{names_.demangled(name_id)}, *filter_);
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

void RunRecorder::trust_name_pointers(const std::atomic<std::uint64_t>* unloads) {
  unloads_.store(unloads, std::memory_order_release);
}

void RunRecorder::restore_names_from(LaunchNames* names) {
  launch_names_.store(names, std::memory_order_release);
}

void RunRecorder::tag_from_launches(const LaunchRanges* ranges) {
  launch_ranges_.store(ranges, std::memory_order_release);
}

void RunRecorder::append(trace::RecordBatch&& batch) {
  std::lock_guard lock{mutex_};
  take_finished_ranges();
  if (!batch.empty()) ++version_;
  // Read before the batch: an unload that lets CUPTI reuse a name's memory for a kernel of this
  // batch came before that kernel's launch, so before now.
  std::uint64_t unload_count = 0;
  if (const std::atomic<std::uint64_t>* unloads = unloads_.load(std::memory_order_acquire)) {
    unload_count = unloads->load(std::memory_order_acquire);
    names_.trust_pointers(unload_count);
  }
  // After the count was read: a name kept by an unload after it is not missed. Once a module
  // was unloaded, every record takes the name noted at its launch (launch_names.hpp says why),
  // so the launches not kept yet are kept now.
  if (LaunchNames* launch_names = launch_names_.load(std::memory_order_acquire)) {
    if (unload_count > 0) launch_names->keep_noted();
    launch_names->restore_names(batch.kernels);
  }
  const LaunchRanges* launch_ranges = launch_ranges_.load(std::memory_order_acquire);
  windows_.refresh(windows_now_);  // one lock per batch, not per kernel
  kernels_received_ += batch.kernels.size();
  api_calls_received_ += batch.api_calls.size() + batch.counted_api_calls;
  memcpys_received_ += batch.memcpys.size() + batch.counted_memcpys;
  memsets_received_ += batch.memsets.size() + batch.counted_memsets;
  const bool ranges_named = registry_.range_count() != 0;
  if (ranges_named) {
    for (const trace::RawScopeTag& tag : batch.scope_tags) {
      if (UntaggedKernels* early = untagged_.find(tag.correlation_id)) {
        attribute_to_ranges(tag.scope_id, early->kernels, early->duration_ns);
        const bool graph = early->graph;
        untagged_.erase(tag.correlation_id);
        if (!graph) continue;  // a graph launch's other kernels may still come
      }
      range_of_launch_.get(tag.correlation_id) = tag.scope_id;
    }
  }

  // Kernels go to the timeline only while it has room. Those it keeps are moved to the front of
  // the batch's own vector (each after the ones it has read), so nothing is copied elsewhere.
  const std::size_t room = timeline_kept_ >= settings_.timeline_records
                               ? 0
                               : settings_.timeline_records - timeline_kept_;
  std::size_t recorded = 0;
  const auto keep = [&](const trace::RawKernel& kernel) {
    if (recorded < room) batch.kernels[recorded++] = kernel;
  };
  for (const trace::RawKernel& kernel : batch.kernels) {
    if (context_devices_.empty() || context_devices_.back().first != kernel.context) {
      const auto known = std::find_if(context_devices_.begin(), context_devices_.end(),
                                      [&](const auto& c) { return c.first == kernel.context; });
      if (known == context_devices_.end() && context_devices_.size() < 256) {
        context_devices_.emplace_back(kernel.context, kernel.device);
      }
    }
    if (kernel.start_ns == 0 || kernel.end_ns < kernel.start_ns) {
      keep(kernel);  // the timeline counts it as a loss; no duration to add
      continue;
    }
    if (!windows_now_.contains(kernel.start_ns)) {
      ++kernels_outside_capture_;
      continue;
    }
    const std::uint32_t name_id = names_.intern(kernel.name);
    if (!selected(name_id)) {
      ++kernels_filtered_;
      continue;
    }
    add_kernel(kernel, name_id);
    const std::size_t kept_before = recorded;
    keep(kernel);
    if (launch_ranges != nullptr) {
      // Noted at the launch: the kernel's ranges are known now, or never.
      if (const std::uint64_t path = launch_ranges->path_of(kernel.correlation_id)) {
        attribute_to_ranges(path, 1, kernel.duration_ns());
        // The timeline attributes its kernels through tags, as CUPTI's own would come.
        if (recorded > kept_before) batch.scope_tags.push_back({kernel.correlation_id, path});
      } else if (ranges_named && launch_ranges->forgotten(kernel.correlation_id)) {
        ++ranges_forgotten_;
      }
    } else if (const std::uint64_t* path = range_of_launch_.find(kernel.correlation_id)) {
      attribute_to_ranges(*path, 1, kernel.duration_ns());
      // A graph launch has one correlation id for all its kernels; others have one kernel.
      if (kernel.graph_id == 0) range_of_launch_.erase(kernel.correlation_id);
    } else if (ranges_named) {
      UntaggedKernels& early = untagged_.get(kernel.correlation_id);
      ++early.kernels;
      early.duration_ns += kernel.duration_ns();
      early.graph = early.graph || kernel.graph_id != 0;
    }
  }
  batch.kernels.resize(recorded);
  keep_for_timeline(batch);
}

// The innermost range owns the kernel; every range of the path counts it once (a range nested in
// one of its own name, recursion, must not count it twice).
void RunRecorder::attribute_to_ranges(std::uint64_t path_id, std::uint64_t kernels,
                                      std::uint64_t duration_ns) {
  const RangeRegistry::Path* innermost = path(path_id);
  if (innermost == nullptr) return;
  RangeStats* owner = range_stats(innermost->range);
  if (owner == nullptr) return;
  owner->self_kernels += kernels;
  owner->self_kernel_ns += duration_ns;
  std::uint64_t credited[RangeRegistry::kMaxDepth];
  std::size_t depth = 0;
  for (const RangeRegistry::Path* at = innermost; at != nullptr && depth < RangeRegistry::kMaxDepth;
       at = path(at->parent)) {
    if (std::find(credited, credited + depth, at->range) != credited + depth) continue;
    credited[depth++] = at->range;
    if (RangeStats* range = range_stats(at->range)) {
      range->kernels += kernels;
      range->kernel_ns += duration_ns;
    }
  }
}

RunRecorder::RangeStats* RunRecorder::range_stats(std::uint64_t range) {
  if (range == 0) return nullptr;
  if (range > ranges_.size()) {
    const std::uint64_t named = registry_.range_count();
    while (ranges_.size() < named)
      ranges_.emplace_back(settings_.samples_per_kernel);
    if (range > ranges_.size()) return nullptr;
  }
  return &ranges_[range - 1];
}

const RangeRegistry::Path* RunRecorder::path(std::uint64_t path) {
  if (path == 0) return nullptr;
  if (path > paths_.size()) {
    registry_.copy_new(nullptr, &paths_);
    if (path > paths_.size()) return nullptr;
  }
  return &paths_[path - 1];
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
    // The timeline has all it lists: only its counts of what it could not read grow, and the
    // batch keeps its vectors for the next buffer.
    if (batch.unknown_records + batch.foreign_tags + batch.truncated_buffers > 0) {
      trace::RecordBatch counts;
      counts.unknown_records = batch.unknown_records;
      counts.foreign_tags = batch.foreign_tags;
      counts.truncated_buffers = batch.truncated_buffers;
      timeline_.append(std::move(counts));
    }
    return;
  }
  cut_other(batch.api_calls);
  cut_other(batch.memcpys);
  cut_other(batch.memsets);
  // Copies and memsets find their ranges where the result callback noted them, by the call's
  // correlation id, as kernels do; only the timeline shows them.
  if (const LaunchRanges* launch_ranges = launch_ranges_.load(std::memory_order_acquire)) {
    const auto tag = [&](const auto& records) {
      for (const auto& record : records) {
        if (const std::uint64_t path = launch_ranges->path_of(record.correlation_id)) {
          batch.scope_tags.push_back({record.correlation_id, path});
        }
      }
    };
    tag(batch.memcpys);
    tag(batch.memsets);
  }
  timeline_kept_ += kept_kernels;
  timeline_full_.store(timeline_kept_ >= limit, std::memory_order_relaxed);
  timeline_.append(std::move(batch));
}

void RunRecorder::api_records_stopped(std::uint64_t launches) {
  std::lock_guard lock{mutex_};
  api_records_stopped_after_ = std::max<std::uint64_t>(launches, 1);
  ++version_;
}

void RunRecorder::api_records_off() {
  std::lock_guard lock{mutex_};
  api_records_off_ = true;
  ++version_;
}

void RunRecorder::add_dropped(std::uint64_t records) {
  std::lock_guard lock{mutex_};
  if (records > 0) ++version_;
  dropped_ += records;
  timeline_.add_dropped(records);
}

void RunRecorder::add_warning(std::string message) {
  std::lock_guard lock{mutex_};
  if (std::find(warnings_.begin(), warnings_.end(), message) == warnings_.end()) {
    warnings_.push_back(std::move(message));
    ++version_;
  }
}

std::uint64_t RunRecorder::version() {
  std::lock_guard lock{mutex_};
  take_finished_ranges();
  // Both only grow: their sum changes whenever either does.
  return version_ + registry_.folded();
}

std::uint64_t RunRecorder::range_id(std::string_view domain, std::string_view name) {
  ThreadRanges* mine = threads_.mine();
  if (mine != nullptr) {
    if (const std::uint64_t id = mine->cached_range(domain, name)) return id;
  }
  const std::uint64_t id = registry_.range_id(domain, name);
  if (mine != nullptr) mine->cache_range(domain, name, id);
  return id;
}

std::uint64_t RunRecorder::range_path(std::uint64_t parent, std::uint64_t range_id) {
  ThreadRanges* mine = threads_.mine();
  if (mine != nullptr) {
    if (const std::uint64_t path = mine->cached_path(parent, range_id)) return path;
  }
  bool exact = true;
  const std::uint64_t path = registry_.path_id(parent, range_id, exact);
  // An opening past the cap is counted each time, so it is never cached.
  if (mine != nullptr && path != 0 && exact) mine->cache_path(parent, range_id, path);
  return path;
}

std::string RunRecorder::range_path_text(std::uint64_t path) const {
  return registry_.path_text(path);
}

void RunRecorder::add_range(std::uint64_t range_id, std::uint64_t start_ns, std::uint64_t end_ns) {
  if (end_ns < start_ns || range_id == 0) return;
  if (ThreadRanges* mine = threads_.mine()) {
    const FinishedRange range{range_id, start_ns, end_ns};
    if (mine->finish(range)) return;
    // Nothing has taken this thread's ranges for tens of thousands of them: take them here.
    std::lock_guard lock{mutex_};
    take_finished_ranges();
    mine->finish(range);
    return;
  }
  const FinishedRange range{range_id, start_ns, end_ns};
  {
    std::lock_guard lock{spill_mutex_};
    if (spilled_.size() < ThreadRanges::kMaxSpilled) {
      spilled_.push_back(range);
      return;
    }
  }
  std::lock_guard lock{mutex_};
  take_finished_ranges();
  add_finished_range(range);
}

// Whether a range counts is decided when the recorder takes it in, not when it closed: a window
// opened or closed since has a later time than the range's start (threads racing aside), so the
// answer is the same.
void RunRecorder::add_finished_range(const FinishedRange& range) {
  if (!windows_.contains(range.start_ns)) return;
  if (RangeStats* stats = range_stats(range.range)) {
    stats->durations.add(static_cast<double>(range.end_ns - range.start_ns));
    ++version_;
  }
}

void RunRecorder::take_finished_ranges() {
  threads_.drain([this](const FinishedRange& range) { add_finished_range(range); });
  std::vector<FinishedRange> spilled;
  {
    std::lock_guard lock{spill_mutex_};
    spilled.swap(spilled_);
  }
  for (const FinishedRange& range : spilled)
    add_finished_range(range);
}

std::int32_t RunRecorder::device_of_context(std::uint32_t context_id) const {
  std::lock_guard lock{mutex_};
  for (const auto& [context, device] : context_devices_) {
    if (context == context_id) return static_cast<std::int32_t>(device);
  }
  return -1;
}

std::uint64_t RunRecorder::kernels_received() const {
  std::lock_guard lock{mutex_};
  return kernels_received_;
}

}  // namespace kerntime::inject
