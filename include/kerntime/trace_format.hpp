// SPDX-License-Identifier: Apache-2.0
// Views of a Trace: the per-kernel and per-scope tables, the nsys-style summaries of copies,
// API calls and kernel launches, and a timeline for ui.perfetto.dev.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include <kerntime/export.hpp>
#include <kerntime/format.hpp>
#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/trace.hpp>

namespace kerntime {

/// The per-kernel summary with the columns of `nsys stats --report cuda_gpu_kern_gb_sum` (Time %,
/// Total Time, Instances, Avg, Med, Min, Max, StdDev, GridXYZ, BlockXYZ, Name), largest total
/// first; one row per kernel name unless KernelSummaryOptions::by_launch_config. Table and Markdown
/// end with the trace's record counts (dropped records and records without timestamps among them)
/// and warnings; CSV holds rows only, times in ns; JSON is an object {"kernels": [...], "counts":
/// {...}, "warnings": [...]}.
///
/// With NameStyle::short_form (the default) table and Markdown write short names and say so under
/// the table; the table then fits 120 terminal columns: Time (%), Total Time, Instances, Med, Min,
/// Max (GridXYZ and BlockXYZ too when the rows are per launch configuration) and the name in the
/// columns left, 24 at least. CSV and JSON keep whole names and every column.
KERNTIME_API std::string render_kernel_summary(const Trace& trace, Format format,
                                               const KernelSummaryOptions& options = {},
                                               NameStyle names = NameStyle::short_form);

/// The same table from a report's trace section (`kerntime run` and reports with attach_trace),
/// with the report's warnings in the footer. When the section has NVTX ranges (`kerntime run`),
/// their table (render_range_summary) follows the kernels': before the footer in a table or
/// Markdown, after a blank line in CSV, as "ranges" in JSON. Throws kerntime::Error when the
/// report has no trace section.
KERNTIME_API std::string render_kernel_summary(const Report& report, Format format,
                                               NameStyle names = NameStyle::short_form);

/// The summaries of `nsys stats` that kerntime makes from a trace (docs/tracing.md).
enum class TraceSummaryKind {
  kernels,          ///< cuda_gpu_kern_sum: render_kernel_summary()
  memory_time,      ///< cuda_gpu_mem_time_sum: copies and memsets by operation, by GPU time
  memory_size,      ///< cuda_gpu_mem_size_sum: the same operations by size
  api_calls,        ///< cuda_api_sum: host API calls by function
  kernel_launches,  ///< cuda_kern_exec_sum: launch call, queue and execution per kernel
};

/// Every kind, in the order above.
inline constexpr std::array<TraceSummaryKind, 5> kTraceSummaryKinds{
    TraceSummaryKind::kernels, TraceSummaryKind::memory_time, TraceSummaryKind::memory_size,
    TraceSummaryKind::api_calls, TraceSummaryKind::kernel_launches};

/// nsys's report name: "cuda_gpu_mem_time_sum", ...
KERNTIME_API std::string_view to_string(TraceSummaryKind kind);
/// nsys's title of the report: "CUDA GPU MemOps Summary (by Time)", ...
KERNTIME_API std::string_view summary_title(TraceSummaryKind kind);
/// The kind nsys's report `name` names; throws kerntime::Error listing the names.
KERNTIME_API TraceSummaryKind parse_trace_summary_kind(std::string_view name);

/// One summary with nsys's columns in nsys's order (cuda_gpu_mem_size_sum in MB of 10^6 bytes),
/// largest first; durations carry their unit in table and Markdown, plain ns in CSV (whose
/// titles say "(ns)"). Table and Markdown end with the record counts and warnings (the API
/// table also says how many driver calls inside runtime calls it did not count again); CSV
/// holds rows only; JSON is an object of the rows, "counts" and "warnings".
/// Kernel names in table and Markdown as `names` says (NameStyle).
KERNTIME_API std::string render_trace_summary(const Trace& trace, TraceSummaryKind kind,
                                              Format format,
                                              NameStyle names = NameStyle::short_form);

/// The same from a report's trace section. The counts are exact; the records it lists may stop
/// at the record limit, and then a warning says the summary covers the listed records only.
/// Throws kerntime::Error when the report has no trace section.
KERNTIME_API std::string render_trace_summary(const Report& report, TraceSummaryKind kind,
                                              Format format,
                                              NameStyle names = NameStyle::short_form);

/// The per-NVTX-range table of a `kerntime run` report: each range name (DOMAIN:NAME for a
/// named domain) in order of first opening, its instances, their total and median host time,
/// the kernels launched inside it (nested ranges included) and their GPU time, and its own
/// (those launched while it was the innermost range). JSON: {"ranges": [...]}, the report's
/// rows. Range names are the program's text: NameStyle::short_form only cuts a long one to fit
/// (the table's Range column to 120 terminal columns). Throws kerntime::Error when the report
/// has no trace section.
KERNTIME_API std::string render_range_summary(const Report& report, Format format,
                                              NameStyle names = NameStyle::short_form);

/// The per-scope summary: openings, kernels (nested scopes included), the sum of their
/// durations, the median GPU span of one opening, and, when `events` holds an entry of the same
/// name (a Session's report), that entry's median cudaEvent time beside it, so the launch
/// latency that event timing includes is visible. Same formats and footer as above.
KERNTIME_API std::string render_scope_summary(const Trace& trace, Format format,
                                              const Report* events = nullptr);

/// The trace as Chrome trace event JSON, which ui.perfetto.dev and chrome://tracing open:
/// one process per GPU with a track per stream (kernels, copies, memsets) and one per stream
/// for scope spans, one process for the host with a track per thread (API calls), and a flow
/// arrow from each launch call to its GPU work. Times are microseconds since the first record.
KERNTIME_API std::string to_chrome_trace(const Trace& trace);

/// Writes to_chrome_trace(trace) to `path`, replacing the file atomically (a temporary file
/// renamed over it); throws kerntime::Error naming the path and the cause on failure.
KERNTIME_API void write_chrome_trace(const Trace& trace, const std::string& path);

}  // namespace kerntime
