// SPDX-License-Identifier: Apache-2.0
// The GPU activity records that the tracer, the trace model and the report share, and the host
// API calls behind them: one type per concept, as plain values. A GPU record is a GpuSpan (where
// and when it ran) plus the payload of its kind (launch configuration, copy or memset details)
// plus what attribution found (the launch call and the kerntime scope). Adding a field to a
// payload adds it everywhere at once.
//
// Times are nanoseconds on CUPTI's clock (CLOCK_REALTIME on Linux unless a tool changed it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <kerntime/export.hpp>

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

/// The direction of a memory copy (CUPTI's numbering).
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

/// The kind of memory on one side of a copy, or under a memset (CUPTI's numbering).
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
KERNTIME_API std::string_view to_string(MemcpyKind kind);
/// "pageable", "pinned", "device", ...
KERNTIME_API std::string_view to_string(MemoryKind kind);

/// Which host API a call belongs to.
enum class ApiKind : std::uint8_t { runtime, driver };

/// Where and when one GPU activity ran. Records whose timestamps are missing or inverted never
/// reach a Trace (they are counted in TraceLosses), so `end_ns >= start_ns` holds there.
struct GpuSpan {
  std::uint32_t device = 0;    ///< CUDA device ordinal
  std::uint32_t context = 0;   ///< CUPTI's context id
  std::uint32_t stream = 0;    ///< CUPTI's stream id (unique within the process)
  std::uint64_t start_ns = 0;  ///< on the GPU
  std::uint64_t end_ns = 0;
  std::uint32_t correlation_id = 0;  ///< links the activity to the API call that enqueued it
  std::uint32_t graph_id = 0;        ///< CUDA graph the activity was launched from; 0: none
  std::uint64_t graph_node_id = 0;   ///< its node within that graph; 0: none

  /// GPU execution time.
  std::uint64_t duration_ns() const { return end_ns - start_ns; }
};

/// A kernel's launch configuration and per-thread resources.
struct KernelConfig {
  Dim3 grid;
  Dim3 block;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t static_shared_memory_bytes = 0;
  std::uint32_t dynamic_shared_memory_bytes = 0;
};

/// What a memory copy moved, and between which memories.
struct MemcpyInfo {
  MemcpyKind kind = MemcpyKind::unknown;
  MemoryKind source_kind = MemoryKind::unknown;
  MemoryKind destination_kind = MemoryKind::unknown;
  std::uint64_t bytes = 0;
  int source_device = -1;       ///< -1: host memory (or unknown)
  int destination_device = -1;  ///< -1: host memory (or unknown)
};

/// What a memset wrote.
struct MemsetInfo {
  std::uint32_t value = 0;
  std::uint64_t bytes = 0;
  MemoryKind memory_kind = MemoryKind::unknown;
};

/// The host call that enqueued a GPU activity (found through its correlation id).
struct LaunchCall {
  ApiKind kind = ApiKind::runtime;
  std::string_view name;  ///< e.g. "cudaLaunchKernel", "cuLaunchKernel", "cudaGraphLaunch"
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t thread_id = 0;   ///< CUPTI's id of the calling thread
  std::uint32_t process_id = 0;  ///< the calling process (CUPTI's id); 0: not known

  /// Host enqueue time: how long the launch call took on the calling thread.
  std::uint64_t enqueue_ns() const { return end_ns - start_ns; }
};

/// One CUDA runtime or driver API call on a host thread (every call the tracer saw, not only
/// those that enqueued GPU work).
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

/// What attribution found for a GPU activity: the call that enqueued it and the innermost
/// kerntime scope around that call.
struct Attribution {
  std::optional<LaunchCall> launch;  ///< empty: no API record matched ("unattributed")
  std::uint64_t scope_id = 0;        ///< innermost kerntime scope of the launch; 0: none
  /// Its name; empty: none. (A report keeps only the name: its scope_id is 0.)
  std::string_view scope_name;
};

/// One kernel execution on a GPU.
struct KERNTIME_API KernelActivity : GpuSpan, KernelConfig, Attribution {
  std::string_view name;          ///< demangled; the mangled name when demangling fails
  std::string_view mangled_name;  ///< as the compiler emitted it (may equal `name` for C names)

  /// Host enqueue time of the launch call; empty when the launch is unknown.
  std::optional<std::uint64_t> enqueue_ns() const;
  /// Queue delay: from the start of the launch call to the start on the GPU. Empty when the
  /// launch is unknown or the kernel seems to start first (clocks disagree: see warnings).
  std::optional<std::uint64_t> queue_delay_ns() const;
};

/// One memory copy on a GPU's copy or compute engine (GpuSpan::device ran it).
struct KERNTIME_API MemcpyActivity : GpuSpan, MemcpyInfo, Attribution {
  /// Bytes per nanosecond, which is GB/s (10^9 bytes per second); 0 for a zero duration.
  double bandwidth_gb_per_s() const;
};

/// One memset on a GPU.
struct KERNTIME_API MemsetActivity : GpuSpan, MemsetInfo, Attribution {
  /// Bytes per nanosecond, which is GB/s; 0 for a zero duration.
  double bandwidth_gb_per_s() const;
};

/// Records that CUPTI lost or kerntime had to leave out. A Trace and a report's TraceCounts
/// carry the same counters, so every view of either shows every loss.
struct TraceLosses {
  std::uint64_t dropped_records = 0;         ///< CUPTI had no buffer space for them: lost for good
  std::uint64_t zero_timestamp_records = 0;  ///< start or end of 0: excluded
  std::uint64_t inverted_timestamp_records = 0;  ///< end before start: excluded
  std::uint64_t unattributed_kernels = 0;        ///< kernels with no matching launch API record
  std::uint64_t kernels_before_launch = 0;       ///< kernels starting before their launch call
  std::uint64_t unknown_records = 0;             ///< records of kinds kerntime does not read
};

/// One row of the per-kernel summary: the columns of `nsys stats --report cuda_gpu_kern_gb_sum`
/// (GridXYZ and BlockXYZ included), one row per kernel name unless by_launch_config.
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

/// How summarize_kernels() (trace.hpp) groups kernels.
struct KernelSummaryOptions {
  /// One row per (name, grid, block), as nsys cuda_gpu_kern_gb_sum has, instead of one per name
  /// (nsys cuda_gpu_kern_sum's rows, with the first instance's grid and block or "mixed").
  bool by_launch_config = false;
};

}  // namespace kerntime
