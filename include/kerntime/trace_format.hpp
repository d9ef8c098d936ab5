// SPDX-License-Identifier: Apache-2.0
// Views of a Trace: the per-kernel and per-scope tables and a timeline for ui.perfetto.dev.
#pragma once

#include <cstddef>
#include <string>

#include <kerntime/format.hpp>
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
std::string render_kernel_summary(const Trace& trace, Format format,
                                  const KernelSummaryOptions& options = {});

/// The same table from a report's trace section (`kerntime run` and reports with attach_trace),
/// with the report's warnings in the footer. When the section has NVTX ranges (`kerntime run`),
/// their table (render_range_summary) follows the kernels': before the footer in a table or
/// Markdown, after a blank line in CSV, as "ranges" in JSON. Throws kerntime::Error when the
/// report has no trace section.
std::string render_kernel_summary(const Report& report, Format format);

/// The per-NVTX-range table of a `kerntime run` report: each range name (DOMAIN:NAME for a
/// named domain) in order of first opening, its instances, their total and median host time,
/// the kernels launched inside it (nested ranges included) and their GPU time, and its own
/// (those launched while it was the innermost range). JSON: {"ranges": [...]}, the report's
/// rows. Throws kerntime::Error when the report has no trace section.
std::string render_range_summary(const Report& report, Format format);

/// The per-scope summary: openings, kernels (nested scopes included), the sum of their
/// durations, the median GPU span of one opening, and, when `events` holds an entry of the same
/// name (a Session's report), that entry's median cudaEvent time beside it, so the launch
/// latency that event timing includes is visible. Same formats and footer as above.
std::string render_scope_summary(const Trace& trace, Format format, const Report* events = nullptr);

/// The trace as Chrome trace event JSON, which ui.perfetto.dev and chrome://tracing open:
/// one process per GPU with a track per stream (kernels, copies, memsets) and one per stream
/// for scope spans, one process for the host with a track per thread (API calls), and a flow
/// arrow from each launch call to its GPU work. Times are microseconds since the first record.
std::string to_chrome_trace(const Trace& trace);

/// Writes to_chrome_trace(trace) to `path`, replacing the file atomically (a temporary file
/// renamed over it); throws kerntime::Error naming the path and the cause on failure.
void write_chrome_trace(const Trace& trace, const std::string& path);

}  // namespace kerntime
