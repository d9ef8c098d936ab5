// SPDX-License-Identifier: Apache-2.0
// The JSON of trace data, one writer per type: the optional "trace" section of
// kerntime-report/1 (docs/report-format.md) and the JSON views of a Trace (format/trace) are
// built from the same pieces, so a row or a record reads the same wherever it appears.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>

namespace kerntime::report {

using TraceJson = nlohmann::ordered_json;

/// Record counts and every loss counter of `trace`, as a report's trace section keeps them.
TraceCounts trace_counts(const Trace& trace);

/// {"kernels": n, ..., "dropped_records": n, ...}: the counts and all of TraceLosses.
TraceJson counts_json(const TraceCounts& counts);

/// One per-kernel summary row: grid and block as [x, y, z], or "mixed_launch_config": true
/// when instances differ (the format has no null). Throws kerntime::Error naming `path` for a
/// figure that is not finite.
TraceJson kernel_summary_json(const KernelSummary& row, const std::string& path);

/// One per-NVTX-range row (`kerntime run`): "domain" only for a named domain. Throws
/// kerntime::Error naming `path` for a median that is not finite.
TraceJson range_summary_json(const RangeSummary& row, const std::string& path);

/// One record each; start_ns (and a launch call's times) count from `origin_ns`.
TraceJson kernel_json(const KernelActivity& kernel, std::uint64_t origin_ns);
TraceJson memcpy_json(const MemcpyActivity& copy, std::uint64_t origin_ns);
TraceJson memset_json(const MemsetActivity& set, std::uint64_t origin_ns);
/// An API call; its start_ns is signed (calls often precede the earliest GPU record).
TraceJson api_call_json(const ApiCall& call, std::uint64_t origin_ns);

/// The section as JSON; throws kerntime::Error ("cannot write report: trace...") for what the
/// reader would reject.
TraceJson trace_section_json(const TraceSection& trace);

/// The same section as text, exactly nested_json(dump_json(trace_section_json(trace), 2),
/// levels), written record by record so that no JSON tree of every record exists at once.
std::string trace_section_text(const TraceSection& trace, int levels);

}  // namespace kerntime::report
