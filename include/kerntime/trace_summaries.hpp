// SPDX-License-Identifier: Apache-2.0
// Summaries of a Trace beyond the per-kernel one, with the figures of Nsight Systems' stats
// reports: copies and memsets by operation (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum), host
// API calls by function (cuda_api_sum), and each kernel's launch call, queue and execution
// (cuda_kern_exec_sum). render_trace_summary() (trace_format.hpp) shows them; docs/tracing.md
// says how each maps to nsys's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/export.hpp>
#include <kerntime/trace.hpp>

namespace kerntime {

/// Count, total, mean, median, extremes and sample standard deviation of non-negative integers:
/// durations in ns or sizes in bytes. With count 0 nothing was summarized and the rest is 0.
struct ValueSummary {
  std::size_t count = 0;
  std::uint64_t total = 0;
  double average = 0.0;
  double median = 0.0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::optional<double> stddev;  ///< n - 1 in the denominator; needs 2 values
};

/// One kind of memory operation: a copy direction ("[CUDA memcpy Host-to-Device]", ...) or
/// "[CUDA memset]", as nsys names them.
struct MemoryOperationSummary {
  std::string operation;
  double time_percent = 0.0;  ///< share of the summed GPU time of every copy and memset
  ValueSummary duration_ns;   ///< GPU time of one operation
  ValueSummary bytes;         ///< size of one operation
};

/// Copies and memsets by operation, largest total time first (ties by name).
KERNTIME_API std::vector<MemoryOperationSummary> summarize_memory_operations(const Trace& trace);

/// One host API function.
struct ApiCallSummary {
  std::string name;  ///< "cudaLaunchKernel", "cuMemAlloc" (the trace's name: no "_vNNNN" suffix)
  double time_percent = 0.0;  ///< share of the summed time of every call summarized
  ValueSummary duration_ns;   ///< host time of one call
};

/// How summarize_api_calls() picks calls.
struct ApiSummaryOptions {
  /// Also count driver calls made inside a runtime call on the same thread. They are that
  /// runtime call's own work (cuLaunchKernel inside cudaLaunchKernel), so by default they are
  /// left out and no host time counts twice.
  bool nested_driver_calls = false;
};

/// API calls by function name, largest total time first (ties by name).
KERNTIME_API std::vector<ApiCallSummary> summarize_api_calls(const Trace& trace,
                                                             const ApiSummaryOptions& options = {});

/// Driver calls that run inside a runtime call on the same thread (those summarize_api_calls()
/// leaves out by default).
KERNTIME_API std::size_t count_nested_driver_calls(const Trace& trace);

/// The kernels of one (process, thread, device, launch function, kernel name): what their
/// launches cost and how long they waited, with nsys's definitions (cuda_kern_exec_sum).
struct KernelExecutionSummary {
  std::uint32_t process_id = 0;  ///< of the launching thread; 0: not known
  std::uint32_t thread_id = 0;   ///< CUPTI's id of the launching thread
  std::uint32_t device = 0;      ///< that ran the kernels
  std::string api_name;          ///< the launch call: "cudaLaunchKernel", "cudaGraphLaunch", ...
  std::string kernel_name;       ///< demangled
  /// From the start of the launch call to the end of the call or of the kernel, whichever is
  /// later (not the sum of the others: they overlap).
  ValueSummary total_ns;
  ValueSummary api_ns;  ///< host time of the launch call
  /// From the end of the launch call to the start of the kernel, for the kernels that start at
  /// or after that end only: queue_ns.count is nsys's QCount, kernel_ns.count its Count.
  ValueSummary queue_ns;
  ValueSummary kernel_ns;  ///< GPU execution
};

/// Kernel launches grouped as above, largest average total time first (ties by kernel name).
/// Kernels without a launch record (TraceLosses::unattributed_kernels) are left out.
KERNTIME_API std::vector<KernelExecutionSummary> summarize_kernel_executions(const Trace& trace);

}  // namespace kerntime
