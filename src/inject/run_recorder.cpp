// SPDX-License-Identifier: Apache-2.0
#include "inject/run_recorder.hpp"

#include <algorithm>
#include <utility>

namespace kerntime::inject {
namespace {

// Launches inside NVTX ranges waiting for their kernel record: more than a program can have in
// flight, and 16 MiB at most, so a graph launch whose kernels keep its entry cannot grow it.
constexpr std::size_t kMaxPendingLaunches = std::size_t{1} << 20;

// Kernels waiting for a tag that may come in a later buffer: a few buffers' worth (an 8 MiB
// buffer holds about 38,000 kernel records), 6 MiB at most. Kernels outside every range pass
// through and are forgotten.
constexpr std::size_t kMaxUntaggedKernels = std::size_t{1} << 17;

// How deep a range path is followed when a kernel is credited: deeper ranges are not credited.
constexpr std::size_t kMaxRangeDepth = 64;

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
    : settings_(settings),
      windows_(settings.capture == CaptureRange::whole_run),
      range_of_launch_(kMaxPendingLaunches),
      untagged_(kMaxUntaggedKernels) {
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

void RunRecorder::append(trace::RecordBatch batch) {
  std::lock_guard lock{mutex_};
  kernels_received_ += batch.kernels.size();
  api_calls_received_ += batch.api_calls.size();
  memcpys_received_ += batch.memcpys.size();
  memsets_received_ += batch.memsets.size();
  if (!ranges_.empty()) {
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
    if (const std::uint64_t* path = range_of_launch_.find(kernel.correlation_id)) {
      attribute_to_ranges(*path, 1, kernel.duration_ns());
      // A graph launch has one correlation id for all its kernels; others have one kernel.
      if (kernel.graph_id == 0) range_of_launch_.erase(kernel.correlation_id);
    } else if (!ranges_.empty()) {
      UntaggedKernels& early = untagged_.get(kernel.correlation_id);
      ++early.kernels;
      early.duration_ns += kernel.duration_ns();
      early.graph = early.graph || kernel.graph_id != 0;
    }
  }
  batch.kernels = std::move(recorded);
  keep_for_timeline(batch);
}

// The innermost range owns the kernel; every range of the path counts it once (a range nested in
// one of its own name, recursion, must not count it twice).
void RunRecorder::attribute_to_ranges(std::uint64_t path, std::uint64_t kernels,
                                      std::uint64_t duration_ns) {
  if (path == 0 || path > paths_.size()) return;
  RangeStats& innermost = ranges_[paths_[path - 1].range - 1];
  innermost.self_kernels += kernels;
  innermost.self_kernel_ns += duration_ns;
  std::uint64_t credited[kMaxRangeDepth];
  std::size_t depth = 0;
  for (std::uint64_t at = path; at != 0 && at <= paths_.size() && depth < kMaxRangeDepth;
       at = paths_[at - 1].parent) {
    const std::uint64_t range = paths_[at - 1].range;
    if (std::find(credited, credited + depth, range) != credited + depth) continue;
    credited[depth++] = range;
    ranges_[range - 1].kernels += kernels;
    ranges_[range - 1].kernel_ns += duration_ns;
  }
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
  ranges_.back().message = name.empty() ? std::string{"(unnamed)"} : std::string{name};
  ranges_.back().domain = std::string{domain};
  const std::uint64_t id = ranges_.size();
  range_ids_.emplace(std::move(display), id);
  return id;
}

std::uint64_t RunRecorder::range_path(std::uint64_t parent, std::uint64_t range_id) {
  std::lock_guard lock{mutex_};
  if (range_id == 0 || range_id > ranges_.size()) return 0;
  if (parent > paths_.size()) parent = 0;
  const auto find_or_add = [&](std::uint64_t from) {
    const std::uint64_t key = (from << 32) ^ range_id;
    const auto [it, inserted] = path_ids_.emplace(key, paths_.size() + 1);
    if (inserted) paths_.push_back({from, range_id});
    return it->second;
  };
  if (paths_.size() >= kMaxRangePaths && path_ids_.count((parent << 32) ^ range_id) == 0) {
    ++paths_folded_;
    return find_or_add(0);
  }
  return find_or_add(parent);
}

std::string RunRecorder::range_path_text(std::uint64_t path) const {
  std::lock_guard lock{mutex_};
  std::vector<const RangeStats*> names;  // innermost first
  for (std::uint64_t at = path; at != 0 && at <= paths_.size() && names.size() < kMaxRangeDepth;
       at = paths_[at - 1].parent) {
    names.push_back(&ranges_[paths_[at - 1].range - 1]);
  }
  std::string text;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    if (!text.empty()) text += " > ";
    text += "\"" + ((*it)->domain.empty() ? "" : (*it)->domain + ":") + (*it)->message + "\"";
  }
  if (names.empty()) return {};
  return (names.size() == 1 ? "range " : "ranges ") + text;
}

void RunRecorder::add_range(std::uint64_t range_id, std::uint64_t start_ns, std::uint64_t end_ns) {
  if (end_ns < start_ns || !windows_.contains(start_ns)) return;
  std::lock_guard lock{mutex_};
  if (range_id == 0 || range_id > ranges_.size()) return;
  ranges_[range_id - 1].durations.add(static_cast<double>(end_ns - start_ns));
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
