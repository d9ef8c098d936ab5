// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/environment.hpp>
#include <kerntime/export.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/records.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime {

/// The JSON schema identifier that every report carries (see docs/report-format.md).
inline constexpr const char* kReportSchema = "kerntime-report/1";

/// What the tool that measured an entry wrote in place of its samples (NVBench's `--json` without
/// `--jsonbin` sample files). Such an entry holds one sample standing in for them (the tool's
/// median, else its mean); `kerntime compare` judges it from these figures instead
/// (docs/ci.md, "Summaries only").
struct SummaryOnly {
  std::uint64_t count = 0;  ///< how many samples the tool took
  double mean = 0.0;        ///< their mean, in the entry's unit
  /// Their standard deviation over the mean; absent when the tool wrote none (NVBench writes
  /// null when it has too few samples for one).
  std::optional<double> relative_stdev;
};

/// A figure the measuring tool recorded beside each sample: Google Benchmark's `cpu_time` (in
/// the entry's unit), `iterations` and user counters (bytes_per_second, items_per_second and
/// the benchmark's own, by name). Kept so that a report written back in that tool's format
/// loses nothing; kerntime judges only the samples.
struct SampleColumn {
  std::string name;
  std::vector<double> values;  ///< one per sample, in the samples' order
};

/// One measured region: every raw sample and their statistics.
///
/// The samples may come from several runs (processes) of the same benchmark. The noise between
/// processes (memory placement, clock state) is invisible inside one process, so the runs are
/// kept apart: `samples` is their concatenation, run after run, and `run_sizes` says where each
/// run ends. Code that reads only `samples` sees every sample, as before.
struct KERNTIME_API Entry {
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
  /// How the benchmark engine measured the entry (its mode, stop reason, floor, work and
  /// throughput); null for entries of a Session, of `kerntime run` and for the engine's
  /// `/events` twins. Shared and immutable rather than held by value: a report of a million
  /// entries without it would otherwise carry 300 bytes more per entry (docs/hardening.md),
  /// and copies of an entry (merges) share it. Last and with `{}`, like run_sizes.
  std::shared_ptr<const MeasurementInfo> measurement{};
  /// Present when the samples are not the tool's samples but one figure standing in for them.
  /// A merge of several runs drops it: the runs' figures are then compared as runs.
  std::optional<SummaryOnly> summary_only{};
  /// Figures recorded beside each sample (SampleColumn), each with one value per sample. A
  /// merge keeps a column only when every run has it.
  std::vector<SampleColumn> sample_columns{};

  /// How many runs the samples come from (1 when run_sizes is empty).
  std::size_t run_count() const;
  /// The samples of each run, in order; one run with every sample when run_sizes is empty.
  /// Throws kerntime::Error naming the entry when run_sizes does not partition the samples.
  std::vector<std::vector<double>> runs() const;
};

/// How many records a trace held (the loss counters come from TraceLosses, the same struct a
/// Trace carries).
struct TraceCounts : TraceLosses {
  std::uint64_t kernels = 0;
  std::uint64_t memcpys = 0;
  std::uint64_t memsets = 0;
  std::uint64_t api_calls = 0;
};

/// One row of the per-NVTX-range table of a `kerntime run` report: every instance of one range
/// name in one domain. Its host times are the report's entry `nvtx:NAME` (`nvtx:DOMAIN:NAME`).
/// A kernel belongs to the ranges open on its launching thread when it was launched: to each of
/// them once (`kernels`, nested ranges included, like ScopedTimer's scopes) and to the innermost
/// as its own (`self_kernels`).
struct RangeSummary {
  std::string name;
  std::string domain;  ///< empty: NVTX's default domain
  std::uint64_t instances = 0;
  std::uint64_t total_ns = 0;  ///< host time, push to pop (or start to end), of all instances
  double median_ns = 0.0;      ///< of one instance
  std::uint64_t kernels = 0;
  std::uint64_t kernel_time_ns = 0;  ///< their GPU durations, summed
  std::uint64_t self_kernels = 0;
  std::uint64_t self_kernel_time_ns = 0;
};

/// What a CUPTI trace adds to a report (attach_trace() in report_transforms.hpp fills it): the
/// per-kernel summary, the records up to a limit, and the loss counts, which are always present
/// so that no reader misses a loss. A list shorter than its count is partial (the record limit).
///
/// The records are the trace's own types with CUPTI times (the JSON counts them from
/// `origin_ns`). Their string_views point into `strings`, shared by every copy of the section;
/// a record added by hand must point at text that outlives the section.
struct TraceSection {
  TraceCounts counts;
  std::vector<KernelSummary> kernel_summary;  ///< largest total first
  std::uint64_t origin_ns = 0;          ///< CUPTI time (ns) that the JSON's start_ns count from
  std::vector<KernelActivity> kernels;  ///< by start time
  std::vector<MemcpyActivity> memcpys;
  std::vector<MemsetActivity> memsets;
  /// Host API calls, by start time: every runtime and driver call, also those that enqueued no
  /// GPU work (reports written before they were listed have counts.api_calls but none here).
  std::vector<ApiCall> api_calls;
  std::uint64_t omitted_records = 0;    ///< records counted above but not listed (record limit)
  std::shared_ptr<const void> strings;  ///< owns the text the records' string_views show
  /// NVTX ranges (`kerntime run`), in order of first opening; empty in other reports.
  std::vector<RangeSummary> range_summary{};
};

/// The report model: what aggregation produces and every formatter renders.
struct KERNTIME_API Report {
  std::string schema = kReportSchema;
  Environment environment;
  std::vector<Entry> entries;
  std::vector<std::string> warnings;  ///< things a reader must know before trusting numbers
  /// Kernel, copy, memset and API call records from a kerntime::Tracer; absent in reports
  /// without one.
  std::optional<TraceSection> trace;

  /// The entry called `name`, or nullptr.
  const Entry* find(const std::string& name) const;
};

}  // namespace kerntime
