// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/environment.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/trace.hpp>

namespace kerntime {

/// The JSON schema identifier that every report carries (see docs/report-format.md).
inline constexpr const char* kReportSchema = "kerntime-report/1";

/// One measured region: every raw sample and their statistics.
///
/// The samples may come from several runs (processes) of the same benchmark. The noise between
/// processes (memory placement, clock state) is invisible inside one process, so the runs are
/// kept apart: `samples` is their concatenation, run after run, and `run_sizes` says where each
/// run ends. Code that reads only `samples` sees every sample, as before.
struct Entry {
  std::string name;             ///< unique within a report
  std::string unit = "ns";      ///< unit of samples and statistics; kerntime writes "ns"
  std::string timer;            ///< what produced the samples, e.g. "cuda-event"
  std::optional<int> device;    ///< device index, when all samples come from one device
  std::vector<double> samples;  ///< every run's samples, run after run
  Statistics statistics;        ///< of all samples together
  /// The sample count of each run, in order; they sum to samples.size() and none is 0. Empty
  /// means one run holding every sample (every report of one process). Last and with `{}`, so
  /// that aggregate initializers written before it existed compile without warnings.
  std::vector<std::size_t> run_sizes{};

  /// How many runs the samples come from (1 when run_sizes is empty).
  std::size_t run_count() const;
  /// The samples of each run, in order; one run with every sample when run_sizes is empty.
  /// Throws kerntime::Error naming the entry when run_sizes does not partition the samples.
  std::vector<std::vector<double>> runs() const;
};

/// How many records a trace held, and how many CUPTI lost or kerntime had to exclude.
struct TraceCounts {
  std::uint64_t kernels = 0;
  std::uint64_t memcpys = 0;
  std::uint64_t memsets = 0;
  std::uint64_t api_calls = 0;
  std::uint64_t dropped_records = 0;             ///< CUPTI had no buffer space: lost for good
  std::uint64_t zero_timestamp_records = 0;      ///< start or end of 0: excluded
  std::uint64_t inverted_timestamp_records = 0;  ///< end before start: excluded
  std::uint64_t unattributed_kernels = 0;        ///< no launch API record matched
};

/// One kernel execution as a report keeps it: owned strings, times in ns, `start_ns` counted
/// from TraceSection::origin_ns (durations are what matter; see docs/tracing.md).
struct TraceKernelRecord {
  std::string name;          ///< demangled
  std::string mangled_name;  ///< empty when it equals `name`
  int device = 0;
  std::uint32_t stream = 0;
  Dim3 grid;
  Dim3 block;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t static_shared_memory_bytes = 0;
  std::uint32_t dynamic_shared_memory_bytes = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t duration_ns = 0;
  std::optional<std::uint64_t> enqueue_ns;      ///< host time of the launch call
  std::optional<std::uint64_t> queue_delay_ns;  ///< launch call start to kernel start
  std::uint32_t graph_id = 0;                   ///< 0: not launched from a CUDA graph
  std::uint64_t graph_node_id = 0;
  std::string scope;  ///< innermost kerntime scope of the launch; empty: none
};

/// One memory copy as a report keeps it.
struct TraceMemcpyRecord {
  MemcpyKind kind = MemcpyKind::unknown;
  MemoryKind source_kind = MemoryKind::unknown;
  MemoryKind destination_kind = MemoryKind::unknown;
  std::uint64_t bytes = 0;
  int device = 0;
  std::uint32_t stream = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t duration_ns = 0;
  std::string scope;
};

/// One memset as a report keeps it.
struct TraceMemsetRecord {
  std::uint32_t value = 0;
  std::uint64_t bytes = 0;
  MemoryKind memory_kind = MemoryKind::unknown;
  int device = 0;
  std::uint32_t stream = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t duration_ns = 0;
  std::string scope;
};

/// What a CUPTI trace adds to a report (attach_trace() in report_transforms.hpp fills it): the
/// per-kernel summary, the raw records up to a limit, and the loss counts, which are always
/// present so that no reader misses a loss.
struct TraceSection {
  TraceCounts counts;
  std::vector<KernelSummary> kernel_summary;  ///< largest total first
  std::uint64_t origin_ns = 0;  ///< CUPTI time (ns) that the records' start_ns count from
  std::vector<TraceKernelRecord> kernels;  ///< by start time
  std::vector<TraceMemcpyRecord> memcpys;
  std::vector<TraceMemsetRecord> memsets;
  std::uint64_t omitted_records = 0;  ///< records counted above but not listed (record limit)
};

/// The report model: what aggregation produces and every formatter renders.
struct Report {
  std::string schema = kReportSchema;
  Environment environment;
  std::vector<Entry> entries;
  std::vector<std::string> warnings;  ///< things a reader must know before trusting numbers
  /// Kernel, copy and memset records from a kerntime::Tracer; absent in reports without one.
  std::optional<TraceSection> trace;

  /// The entry called `name`, or nullptr.
  const Entry* find(const std::string& name) const;
};

}  // namespace kerntime
