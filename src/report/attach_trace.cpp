// SPDX-License-Identifier: Apache-2.0
// A Trace as a report's trace section: the same record types, copied whole, sharing the trace's
// string store; the origin is the earliest GPU record, so the JSON's times stay readable.
#include <algorithm>
#include <limits>
#include <string>

#include <kerntime/report_transforms.hpp>

#include "report/trace_section_json.hpp"

namespace kerntime {
namespace {

std::uint64_t earliest_start(const Trace& trace) {
  std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
  auto earliest = [&origin](const auto& records) {
    for (const GpuSpan& span : records)
      origin = std::min(origin, span.start_ns);
  };
  earliest(trace.kernels);
  earliest(trace.memcpys);
  earliest(trace.memsets);
  return origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin;
}

// The earliest `limit` records (the list is sorted by start time); the rest are counted.
template <class Record>
std::vector<Record> first_records(const std::vector<Record>& from, std::size_t limit,
                                  std::uint64_t& omitted) {
  const std::size_t listed = std::min(limit, from.size());
  omitted += from.size() - listed;
  return std::vector<Record>(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(listed));
}

}  // namespace

void attach_trace(Report& report, const Trace& trace, const TraceReportOptions& options) {
  TraceSection section;
  section.counts = report::trace_counts(trace);
  if (options.kernel_summary) section.kernel_summary = summarize_kernels(trace, options.summary);
  section.origin_ns = earliest_start(trace);
  section.strings = trace.strings;
  const std::size_t limit = options.max_records_per_kind;
  section.kernels = first_records(trace.kernels, limit, section.omitted_records);
  section.memcpys = first_records(trace.memcpys, limit, section.omitted_records);
  section.memsets = first_records(trace.memsets, limit, section.omitted_records);
  if (options.api_calls) {
    section.api_calls = first_records(trace.api_calls, limit, section.omitted_records);
  }
  report.trace = std::move(section);
  for (const std::string& warning : trace.warnings) {
    if (std::find(report.warnings.begin(), report.warnings.end(), warning) ==
        report.warnings.end()) {
      report.warnings.push_back(warning);
    }
  }
}

}  // namespace kerntime
