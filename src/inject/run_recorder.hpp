// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kerntime/records.hpp>
#include <kerntime/report.hpp>

#include "inject/capture_windows.hpp"
#include "inject/kernel_aggregate.hpp"
#include "inject/launch_names.hpp"
#include "inject/launch_ranges.hpp"
#include "inject/range_registry.hpp"
#include "inject/recent_map.hpp"
#include "inject/run_settings.hpp"
#include "inject/thread_ranges.hpp"
#include "trace/names.hpp"
#include "trace/raw_records.hpp"
#include "trace/string_store.hpp"
#include "trace/trace_builder.hpp"

namespace kerntime::inject {

/// What one process of `kerntime run` records, in memory bounded by the settings, not by how
/// long the program runs: per kernel name and per NVTX range name a DurationAggregate (exact
/// count, total, extremes, and a bounded uniform sample), and the first records in full for the
/// timeline. CUPTI-free: it reads decoded record batches, so tests feed it synthetic ones.
///
/// Thread-safe: batches come from the session's reader thread, NVTX ranges from the program's
/// threads, report() from the checkpoint thread or the exit handler. What the program's threads
/// call (range_id, range_path, add_range) never waits for the recorder's lock, which the reader
/// holds for a whole buffer and a report while it is built: a known range costs a lookup in the
/// thread's own cache, a new one the registry's short lock, and a closed range is queued on the
/// thread until the reader or the next report takes it.
class RunRecorder {
 public:
  /// Distinct nestings of NVTX ranges kept (RangeRegistry::kMaxPaths).
  static constexpr std::size_t kMaxRangePaths = RangeRegistry::kMaxPaths;

  explicit RunRecorder(const RunSettings& settings);

  CaptureWindows& windows() { return windows_; }

  /// Takes the records of one batch; what it does not keep is left in `batch`, which the caller
  /// may clear and reuse.
  void append(trace::RecordBatch&& batch);
  /// From now on a kernel name pointer seen before is taken for the same name without reading
  /// it, while `unloads` (CuptiApi::watch_unloads, which must outlive the recorder) stays the
  /// same: PyTorch's names run to thousands of characters, and were compared on every record.
  void trust_name_pointers(const std::atomic<std::uint64_t>* unloads);
  /// Kernels launched before the latest module unload, and once a module was unloaded every
  /// kernel, take the names `names` kept at their launch (which must outlive the recorder):
  /// CUPTI's pointer may name another kernel by then.
  void restore_names_from(LaunchNames* names);
  /// Kernels take their NVTX ranges from the paths `ranges` noted at their launch (which must
  /// outlive the recorder), not from external correlation records.
  void tag_from_launches(const LaunchRanges* ranges);
  /// True once the timeline lists all it may: API, copy and memset records are then only
  /// counted, so a reader need not decode them (ActivitySession::RecordSink::counts_only).
  bool timeline_full() const { return timeline_full_.load(std::memory_order_relaxed); }
  /// API records were switched off after the program's first `launches` launches (the cost
  /// target of docs/run.md): the report says what that leaves out, instead of the timeline's
  /// warning about kernels without a launch record.
  void api_records_stopped(std::uint64_t launches);
  /// No API record was asked for (RunSettings::launch_calls off): the report says so, instead
  /// of the timeline's warning about kernels without a launch record.
  void api_records_off();
  void add_dropped(std::uint64_t records);
  void add_warning(std::string message);

  /// The id (never 0) an NVTX range name is pushed under as CUPTI's external correlation id,
  /// so the kernels launched inside are attributed to it. `domain` empty: the default domain.
  std::uint64_t range_id(std::string_view domain, std::string_view name);
  /// The id (never 0) a push/pop range is tagged with: range `range_id` opened while the ranges
  /// of path `parent` were open on the thread (0: none). Kernels launched under it count for
  /// every range of the path once, and as the innermost's own. Paths are capped (kMaxRangePaths);
  /// past the cap a range is tagged as if opened alone, and the report says so.
  std::uint64_t range_path(std::uint64_t parent, std::uint64_t range_id);
  /// The ranges of path `path`, outermost first, as a report names them: `range "step"` or
  /// `ranges "outer" > "step"` (a named domain's as "DOMAIN:NAME"); "" for none or an unknown id.
  std::string range_path_text(std::uint64_t path) const;
  /// One NVTX range instance, opened and closed at these host times (CUPTI's clock).
  void add_range(std::uint64_t range_id, std::uint64_t start_ns, std::uint64_t end_ns);

  /// The device of CUPTI context `context_id` from the kernel records received; -1: none yet.
  std::int32_t device_of_context(std::uint32_t context_id) const;

  /// Kernel records received (before filtering), for the watch that tells an empty run from a
  /// starved one.
  std::uint64_t kernels_received() const;

  /// Everything so far as a report: an entry per kernel name (timer "cupti-kernel") and per
  /// NVTX range name ("nvtx-range", host time), and the trace section with the exact per-kernel
  /// summary and the first records (`with_records`; without, the summary and counts only: a
  /// checkpoint, which must cost the program little). The environment is left for the caller.
  /// It first takes in the ranges the program's threads have closed. The recorder's lock is
  /// held while the figures are copied (and the timeline built), not while the statistics are
  /// worked out: the reader thread waits for a copy, not for a sort of every kernel's samples.
  Report report(bool with_records = true);

  /// A number that changes whenever what report() says may have changed; it first takes in the
  /// ranges the program's threads have closed. A checkpoint with the number of the last one
  /// has nothing new to write.
  std::uint64_t version();

 private:
  struct KernelStats {
    explicit KernelStats(std::size_t capacity) : durations(capacity) {}
    DurationAggregate durations;
    Dim3 grid;
    Dim3 block;
    bool mixed_launch_config = false;
    std::optional<std::uint32_t> device;
    bool mixed_devices = false;
  };
  struct RangeStats {
    explicit RangeStats(std::size_t capacity) : durations(capacity) {}
    DurationAggregate durations;
    std::uint64_t kernels = 0;  // nested ranges' included
    std::uint64_t kernel_ns = 0;
    std::uint64_t self_kernels = 0;
    std::uint64_t self_kernel_ns = 0;
  };

  bool selected(std::uint32_t name_id);
  void attribute_to_ranges(std::uint64_t path, std::uint64_t kernels, std::uint64_t duration_ns);
  /// The stats of range `range`, made for every range the registry has named; nullptr for an
  /// unknown id.
  RangeStats* range_stats(std::uint64_t range);
  /// Path `path` of the registry; nullptr for an unknown id.
  const RangeRegistry::Path* path(std::uint64_t path);
  void add_finished_range(const FinishedRange& range);
  /// Takes in the ranges the program's threads have closed since the last time.
  void take_finished_ranges();
  void add_kernel(const trace::RawKernel& kernel, std::uint32_t name_id);
  void keep_for_timeline(trace::RecordBatch& batch);
  // What report() copies under the lock: each kernel's and range's figures and samples; the
  // exact medians, the statistics and the order are worked out after.
  struct KernelFigures {
    KernelSummary row;  // its median the sketch's when not complete, else set later
    bool complete = false;
    std::optional<int> device;
    std::vector<double> samples;
  };
  struct RangeFigures {
    RangeSummary row;
    bool complete = false;
    std::string entry_name;
    std::vector<double> samples;
  };
  struct Figures {
    std::vector<KernelFigures> kernels;
    std::vector<RangeFigures> ranges;  // the registry's order, those with an instance or kernel
    std::uint64_t memcpys = 0;
    std::uint64_t memsets = 0;
    std::uint64_t api_calls = 0;
    std::uint64_t dropped = 0;
    std::uint64_t outside_capture = 0;
    std::uint64_t filtered = 0;
    std::uint64_t folded = 0;
    std::uint64_t ranges_forgotten = 0;
    std::uint64_t api_records_stopped_after = 0;
    bool api_records_off = false;
    std::vector<std::string> warnings;
  };
  Figures copy_figures(const std::vector<RangeRegistry::Range>& names) const;

  const RunSettings settings_;
  CaptureWindows windows_;
  std::optional<std::regex> filter_;

  // The program threads' side of NVTX ranges, outside mutex_.
  RangeRegistry registry_;
  ThreadRangesSet threads_;
  std::mutex spill_mutex_;  // threads past ThreadRangesSet::kThreads queue here
  std::vector<FinishedRange> spilled_;

  std::atomic<const std::atomic<std::uint64_t>*> unloads_{nullptr};
  std::atomic<LaunchNames*> launch_names_{nullptr};
  std::atomic<const LaunchRanges*> launch_ranges_{nullptr};

  mutable std::mutex mutex_;
  std::uint64_t version_ = 0;             // bumped by whatever changes the report
  CaptureWindows::Snapshot windows_now_;  // as of the batch being appended
  trace::StringStore names_store_;
  trace::KernelNames names_{names_store_};
  std::vector<std::optional<bool>> selected_;               // by name id
  std::unordered_map<std::uint32_t, KernelStats> kernels_;  // by name id
  std::vector<RangeStats> ranges_;                          // range id - 1
  std::vector<RangeRegistry::Path> paths_;                  // the registry's, path id - 1
  // Correlation id -> range path of launches made inside NVTX ranges, until their kernel
  // arrives; and, while ranges exist, kernels that arrived before any tag for them (CUPTI
  // delivers buffers in no order), until their tag does. Both forget their oldest first.
  struct UntaggedKernels {
    std::uint64_t kernels = 0;
    std::uint64_t duration_ns = 0;
    bool graph = false;
  };
  RecentMap<std::uint64_t> range_of_launch_;
  RecentMap<UntaggedKernels> untagged_;
  std::uint64_t kernels_received_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> context_devices_;  // context id, device
  std::uint64_t api_calls_received_ = 0;
  std::uint64_t memcpys_received_ = 0;
  std::uint64_t memsets_received_ = 0;
  std::uint64_t kernels_outside_capture_ = 0;
  std::uint64_t kernels_filtered_ = 0;
  std::uint64_t api_records_stopped_after_ = 0;  // launches; 0: on all along
  bool api_records_off_ = false;                 // never on
  std::uint64_t ranges_forgotten_ = 0;  // kernels whose launch's noted ranges were overwritten
  std::uint64_t dropped_ = 0;
  std::uint64_t timeline_kept_ = 0;
  std::atomic<bool> timeline_full_{false};
  std::vector<std::string> warnings_;
  mutable trace::TraceBuilder timeline_;
};

}  // namespace kerntime::inject
