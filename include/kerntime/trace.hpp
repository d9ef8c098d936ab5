// SPDX-License-Identifier: Apache-2.0
// The trace model: what a kerntime::Tracer recorded, as plain values. Every time is in
// nanoseconds on CUPTI's clock (CLOCK_REALTIME on Linux unless a tool changed it); compare
// durations and differences, and use Trace::clock to place them on the host's steady clock.
// The GPU records themselves (KernelActivity, MemcpyActivity, ...) live in records.hpp, shared
// with the report.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kerntime/export.hpp>
#include <kerntime/records.hpp>

namespace kerntime {

/// What a host thread waited for.
enum class SynchronizationKind : std::uint8_t {
  unknown,
  event_synchronize,
  stream_wait_event,
  stream_synchronize,
  context_synchronize,
};

KERNTIME_API std::string_view to_string(SynchronizationKind kind);

/// One synchronization call's wait, as CUPTI saw it (host times).
struct SynchronizationActivity {
  SynchronizationKind kind = SynchronizationKind::unknown;
  std::uint32_t context = 0;
  std::uint32_t stream = 0;  ///< 0xffffffff when the wait is not on a stream
  std::uint32_t event = 0;   ///< CUPTI's event id; 0xffffffff when there is none
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t correlation_id = 0;
  std::optional<LaunchCall> call;  ///< the API call that waited
  std::uint64_t scope_id = 0;
  std::string_view scope_name;

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
};

/// One opening of a kerntime scope (a ScopedTimer) while the tracer was active.
struct TraceScope {
  std::uint64_t id = 0;
  std::uint64_t parent_id = 0;  ///< enclosing scope on the same thread; 0: none
  std::string_view name;
  std::uint64_t thread_id = 0;  ///< OS thread id (gettid) of the thread that opened it
};

/// One reading of both clocks, taken when tracing started: maps CUPTI times to
/// std::chrono::steady_clock (host time = steady_ns + (t - cupti_ns)).
struct ClockAnchor {
  std::uint64_t cupti_ns = 0;
  std::int64_t steady_ns = 0;
};

/// Everything a tracer recorded, correlated and attributed. Records are sorted by start time.
/// The loss counters (dropped_records, zero_timestamp_records, ...) come from TraceLosses, the
/// same struct a report's TraceCounts carries.
///
/// The records' string_views point into `strings`, shared by every copy of the Trace: they stay
/// valid as long as the Trace (or any copy of it) lives.
struct KERNTIME_API Trace : TraceLosses {
  std::vector<KernelActivity> kernels;
  std::vector<MemcpyActivity> memcpys;
  std::vector<MemsetActivity> memsets;
  std::vector<SynchronizationActivity> synchronizations;
  std::vector<ApiCall> api_calls;
  std::vector<TraceScope> scopes;     ///< sorted by id
  std::vector<std::string> warnings;  ///< what a reader must know before trusting numbers

  ClockAnchor clock;
  std::shared_ptr<const void> strings;

  /// The scope with this id, or nullptr.
  const TraceScope* find_scope(std::uint64_t id) const;
};

/// Per-kernel-name summary, largest total first (ties by name).
KERNTIME_API std::vector<KernelSummary> summarize_kernels(const Trace& trace,
                                                          const KernelSummaryOptions& options = {});

/// GPU activity of a scope on one stream.
struct StreamSpan {
  std::uint32_t device = 0;
  std::uint32_t stream = 0;
  std::size_t kernels = 0;
  std::uint64_t kernel_time_ns = 0;  ///< sum of kernel durations
  std::uint64_t span_ns = 0;         ///< sum over scope instances of max(end) - min(start) here
};

/// One row of the per-scope summary: all openings of one scope name. Counts include kernels
/// of nested scopes (like the scope's cudaEvent time does); `self_*` exclude them.
struct ScopeSummary {
  std::string name;
  std::size_t instances = 0;  ///< openings seen while tracing
  std::size_t kernels = 0;
  std::uint64_t kernel_time_ns = 0;  ///< sum of kernel durations
  std::size_t self_kernels = 0;
  std::uint64_t self_kernel_time_ns = 0;
  std::vector<StreamSpan> streams;  ///< by device, then stream
  /// Per opening that launched kernels: GPU span from the first kernel start to the last
  /// kernel end over all its streams (the figure to put beside the scope's cudaEvent time).
  std::vector<double> instance_span_ns;
  /// Per opening that launched kernels: the sum of its kernels' durations.
  std::vector<double> instance_kernel_time_ns;
};

/// Per-scope-name summary, in order of first opening.
KERNTIME_API std::vector<ScopeSummary> summarize_scopes(const Trace& trace);

}  // namespace kerntime
