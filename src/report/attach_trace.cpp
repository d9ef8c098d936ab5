// SPDX-License-Identifier: Apache-2.0
// A Trace as a report's trace section: owned strings instead of views into the trace, and
// record times counted from the earliest record, so the JSON stays readable.
#include <algorithm>
#include <limits>
#include <string>

#include <kerntime/report_transforms.hpp>

namespace kerntime {
namespace {

std::uint64_t earliest_start(const Trace& trace) {
  std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
  for (const KernelActivity& k : trace.kernels)
    origin = std::min(origin, k.start_ns);
  for (const MemcpyActivity& m : trace.memcpys)
    origin = std::min(origin, m.start_ns);
  for (const MemsetActivity& m : trace.memsets)
    origin = std::min(origin, m.start_ns);
  return origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin;
}

TraceKernelRecord kernel_record(const KernelActivity& k, std::uint64_t origin) {
  TraceKernelRecord r;
  r.name = std::string{k.name};
  if (k.mangled_name != k.name) r.mangled_name = std::string{k.mangled_name};
  r.device = static_cast<int>(k.device);
  r.stream = k.stream;
  r.grid = k.grid;
  r.block = k.block;
  r.registers_per_thread = k.registers_per_thread;
  r.static_shared_memory_bytes = k.static_shared_memory_bytes;
  r.dynamic_shared_memory_bytes = k.dynamic_shared_memory_bytes;
  r.start_ns = k.start_ns - origin;
  r.duration_ns = k.duration_ns();
  r.enqueue_ns = k.enqueue_ns();
  r.queue_delay_ns = k.queue_delay_ns();
  r.graph_id = k.graph_id;
  r.graph_node_id = k.graph_node_id;
  r.scope = std::string{k.scope_name};
  return r;
}

TraceMemcpyRecord memcpy_record(const MemcpyActivity& m, std::uint64_t origin) {
  TraceMemcpyRecord r;
  r.kind = m.kind;
  r.source_kind = m.source_kind;
  r.destination_kind = m.destination_kind;
  r.bytes = m.bytes;
  r.device = static_cast<int>(m.device);
  r.stream = m.stream;
  r.start_ns = m.start_ns - origin;
  r.duration_ns = m.duration_ns();
  r.scope = std::string{m.scope_name};
  return r;
}

TraceMemsetRecord memset_record(const MemsetActivity& m, std::uint64_t origin) {
  TraceMemsetRecord r;
  r.value = m.value;
  r.bytes = m.bytes;
  r.memory_kind = m.memory_kind;
  r.device = static_cast<int>(m.device);
  r.stream = m.stream;
  r.start_ns = m.start_ns - origin;
  r.duration_ns = m.duration_ns();
  r.scope = std::string{m.scope_name};
  return r;
}

template <class Activity, class Record, class Convert>
void copy_records(const std::vector<Activity>& from, std::vector<Record>& to, std::size_t limit,
                  std::uint64_t origin, std::uint64_t& omitted, Convert convert) {
  const std::size_t listed = std::min(limit, from.size());
  to.reserve(listed);
  for (std::size_t i = 0; i < listed; ++i)
    to.push_back(convert(from[i], origin));
  omitted += from.size() - listed;
}

}  // namespace

void attach_trace(Report& report, const Trace& trace, const TraceReportOptions& options) {
  TraceSection section;
  section.counts = TraceCounts{trace.kernels.size(),
                               trace.memcpys.size(),
                               trace.memsets.size(),
                               trace.api_calls.size(),
                               trace.dropped_records,
                               trace.zero_timestamp_records,
                               trace.inverted_timestamp_records,
                               trace.unattributed_kernels};
  if (options.kernel_summary) section.kernel_summary = summarize_kernels(trace, options.summary);
  section.origin_ns = earliest_start(trace);
  const std::size_t limit = options.max_records_per_kind;
  copy_records(trace.kernels, section.kernels, limit, section.origin_ns, section.omitted_records,
               kernel_record);
  copy_records(trace.memcpys, section.memcpys, limit, section.origin_ns, section.omitted_records,
               memcpy_record);
  copy_records(trace.memsets, section.memsets, limit, section.origin_ns, section.omitted_records,
               memset_record);
  report.trace = std::move(section);
  for (const std::string& warning : trace.warnings) {
    if (std::find(report.warnings.begin(), report.warnings.end(), warning) ==
        report.warnings.end()) {
      report.warnings.push_back(warning);
    }
  }
}

}  // namespace kerntime
