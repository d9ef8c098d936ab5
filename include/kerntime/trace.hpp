// SPDX-License-Identifier: Apache-2.0
// The trace model: what a kerntime::Tracer recorded, as plain values. Every time is in
// nanoseconds on CUPTI's clock (CLOCK_REALTIME on Linux unless a tool changed it); compare
// durations and differences, and use Trace::clock to place them on the host's steady clock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kerntime {

/// Grid or block dimensions of a kernel launch.
struct Dim3 {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint32_t z = 0;

  std::uint64_t volume() const { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3& a, const Dim3& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
  }
  friend bool operator!=(const Dim3& a, const Dim3& b) { return !(a == b); }
};

/// Which host API a call belongs to.
enum class ApiKind : std::uint8_t { runtime, driver };

/// One CUDA runtime or driver API call on a host thread.
struct ApiCall {
  ApiKind kind = ApiKind::runtime;
  std::uint32_t callback_id = 0;  ///< CUPTI's id of the function within its API
  std::string_view name;          ///< e.g. "cudaLaunchKernel" (CUPTI's "_v7000" suffix removed)
  std::uint32_t correlation_id = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;     ///< CUPTI's id of the calling thread
  std::uint32_t return_value = 0;  ///< cudaError_t or CUresult
  std::uint64_t scope_id = 0;      ///< innermost kerntime scope around the call; 0: none
  std::string_view scope_name;

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
};

/// The host call that enqueued a GPU activity (found through its correlation id).
struct LaunchCall {
  ApiKind kind = ApiKind::runtime;
  std::string_view name;  ///< e.g. "cudaLaunchKernel", "cuLaunchKernel", "cudaGraphLaunch"
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t thread_id = 0;

  /// Host enqueue time: how long the launch call took on the calling thread.
  std::uint64_t enqueue_ns() const { return end_ns - start_ns; }
};

/// One kernel execution on a GPU.
///
/// Records whose timestamps are missing or inverted never appear here: they are counted in
/// Trace::zero_timestamp_records and Trace::inverted_timestamp_records instead, so
/// `end_ns >= start_ns` always holds.
struct KernelActivity {
  std::string_view name;          ///< demangled; the mangled name when demangling fails
  std::string_view mangled_name;  ///< as the compiler emitted it (may equal `name` for C names)
  std::uint32_t device = 0;       ///< CUDA device ordinal
  std::uint32_t context = 0;      ///< CUPTI's context id
  std::uint32_t stream = 0;       ///< CUPTI's stream id (unique within the process)
  Dim3 grid;
  Dim3 block;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t static_shared_memory_bytes = 0;
  std::uint32_t dynamic_shared_memory_bytes = 0;
  std::uint64_t start_ns = 0;  ///< on the GPU
  std::uint64_t end_ns = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t graph_id = 0;        ///< CUDA graph the kernel was launched from; 0: none
  std::uint64_t graph_node_id = 0;   ///< its node within that graph; 0: none
  std::optional<LaunchCall> launch;  ///< empty: no API record matched ("unattributed")
  std::uint64_t scope_id = 0;        ///< innermost kerntime scope of the launch; 0: none
  std::string_view scope_name;

  /// GPU execution time.
  std::uint64_t duration_ns() const { return end_ns - start_ns; }
  /// Host enqueue time of the launch call; empty when the launch is unknown.
  std::optional<std::uint64_t> enqueue_ns() const;
  /// Queue delay: from the start of the launch call to the start on the GPU. Empty when the
  /// launch is unknown or the kernel seems to start first (clocks disagree: see warnings).
  std::optional<std::uint64_t> queue_delay_ns() const;
};

/// The direction of a memory copy.
enum class MemcpyKind : std::uint8_t {
  unknown,
  host_to_device,
  device_to_host,
  host_to_array,
  array_to_host,
  array_to_array,
  array_to_device,
  device_to_array,
  device_to_device,
  host_to_host,
  peer_to_peer,
};

/// The kind of memory on one side of a copy, or under a memset.
enum class MemoryKind : std::uint8_t {
  unknown,
  pageable,
  pinned,
  device,
  array,
  managed,
  device_static,
  managed_static,
};

/// Short names for tables: "HtoD", "DtoH", "DtoD", "PtoP", ...
std::string_view to_string(MemcpyKind kind);
/// "pageable", "pinned", "device", ...
std::string_view to_string(MemoryKind kind);

/// One memory copy on a GPU's copy or compute engine.
struct MemcpyActivity {
  MemcpyKind kind = MemcpyKind::unknown;
  MemoryKind source_kind = MemoryKind::unknown;
  MemoryKind destination_kind = MemoryKind::unknown;
  std::uint64_t bytes = 0;
  std::uint32_t device = 0;  ///< the device that ran the copy
  std::uint32_t context = 0;
  std::uint32_t stream = 0;
  int source_device = -1;       ///< -1: host memory
  int destination_device = -1;  ///< -1: host memory
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t graph_id = 0;
  std::uint64_t graph_node_id = 0;
  std::optional<LaunchCall> launch;
  std::uint64_t scope_id = 0;
  std::string_view scope_name;

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
  /// Bytes per nanosecond, which is GB/s (10^9 bytes per second); 0 for a zero duration.
  double bandwidth_gb_per_s() const;
};

/// One memset on a GPU.
struct MemsetActivity {
  std::uint32_t value = 0;
  std::uint64_t bytes = 0;
  MemoryKind memory_kind = MemoryKind::unknown;
  std::uint32_t device = 0;
  std::uint32_t context = 0;
  std::uint32_t stream = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t graph_id = 0;
  std::uint64_t graph_node_id = 0;
  std::optional<LaunchCall> launch;
  std::uint64_t scope_id = 0;
  std::string_view scope_name;

  std::uint64_t duration_ns() const { return end_ns - start_ns; }
  double bandwidth_gb_per_s() const;
};

/// What a host thread waited for.
enum class SynchronizationKind : std::uint8_t {
  unknown,
  event_synchronize,
  stream_wait_event,
  stream_synchronize,
  context_synchronize,
};

std::string_view to_string(SynchronizationKind kind);

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
///
/// The records' string_views point into `strings`, shared by every copy of the Trace: they stay
/// valid as long as the Trace (or any copy of it) lives.
struct Trace {
  std::vector<KernelActivity> kernels;
  std::vector<MemcpyActivity> memcpys;
  std::vector<MemsetActivity> memsets;
  std::vector<SynchronizationActivity> synchronizations;
  std::vector<ApiCall> api_calls;
  std::vector<TraceScope> scopes;  ///< sorted by id

  std::uint64_t dropped_records = 0;         ///< CUPTI had no buffer space for them: lost for good
  std::uint64_t zero_timestamp_records = 0;  ///< start or end of 0: excluded
  std::uint64_t inverted_timestamp_records = 0;  ///< end before start: excluded
  std::uint64_t unattributed_kernels = 0;        ///< kernels with no matching launch API record
  std::uint64_t kernels_before_launch = 0;       ///< kernels starting before their launch call
  std::uint64_t unknown_records = 0;             ///< records of kinds kerntime does not read
  std::vector<std::string> warnings;  ///< what a reader must know before trusting numbers

  ClockAnchor clock;
  std::shared_ptr<const void> strings;

  /// The scope with this id, or nullptr.
  const TraceScope* find_scope(std::uint64_t id) const;
};

/// One row of the per-kernel summary (the columns of `nsys stats` cuda_gpu_kern_sum).
struct KernelSummary {
  std::string name;  ///< demangled
  std::size_t instances = 0;
  std::uint64_t total_ns = 0;
  double time_percent = 0.0;  ///< share of all kernels' total GPU time
  double average_ns = 0.0;
  double median_ns = 0.0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::optional<double> stddev_ns;  ///< sample standard deviation; needs 2 instances
  Dim3 grid;                        ///< of the first instance
  Dim3 block;
  bool mixed_launch_config = false;  ///< instances differ in grid or block
};

struct KernelSummaryOptions {
  /// One row per (name, grid, block) instead of per name (like nsys cuda_gpu_kern_gb_sum).
  bool by_launch_config = false;
};

/// Per-kernel-name summary, largest total first (ties by name).
std::vector<KernelSummary> summarize_kernels(const Trace& trace,
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
std::vector<ScopeSummary> summarize_scopes(const Trace& trace);

}  // namespace kerntime
