// SPDX-License-Identifier: Apache-2.0
// Writes trace data: the report's trace section and the pieces the trace views share. Fields
// that hold nothing (no scope, no graph, no launch record) are left out rather than written as
// placeholders, as everywhere in the format.
#include <cmath>
#include <string>
#include <vector>

#include <kerntime/error.hpp>

#include "io/json_text.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime::report {
namespace {

using Out = TraceJson;

double finite(double value, const std::string& path) {
  if (!std::isfinite(value)) {
    throw Error("cannot write report: " + path + ": expected a finite number, got " +
                std::to_string(value));
  }
  return value;
}

Out dim(const Dim3& d) {
  return Out::array({d.x, d.y, d.z});
}

// A host time relative to the origin: launch calls precede the first GPU record, so it is
// often negative (the only signed times in the format).
std::int64_t relative(std::uint64_t time, std::uint64_t origin) {
  return static_cast<std::int64_t>(time - origin);
}

const char* api_kind(ApiKind kind) {
  return kind == ApiKind::driver ? "driver" : "runtime";
}

void put_span(Out& json, const GpuSpan& span) {
  json["device"] = span.device;
  json["stream"] = span.stream;
}

void put_times(Out& json, const GpuSpan& span, std::uint64_t origin) {
  json["start_ns"] = span.start_ns - origin;
  json["duration_ns"] = span.duration_ns();
}

void put_graph(Out& json, const GpuSpan& span) {
  if (span.graph_id != 0) {
    json["graph_id"] = span.graph_id;
    json["graph_node_id"] = span.graph_node_id;
  }
}

// The launch call, when one was matched by name: enough to rebuild LaunchCall losslessly (a
// launch rebuilt from an older file's enqueue_ns and queue_delay_ns has no name, and is not
// written back as if it were known).
void put_attribution(Out& json, const Attribution& a, std::uint64_t origin) {
  if (a.launch && !a.launch->name.empty()) {
    json["launch"] = Out{{"api", api_kind(a.launch->kind)},
                         {"name", std::string{a.launch->name}},
                         {"thread_id", a.launch->thread_id}};
    if (a.launch->process_id != 0) json["launch"]["process_id"] = a.launch->process_id;
    json["launch"]["start_ns"] = relative(a.launch->start_ns, origin);
    json["launch"]["end_ns"] = relative(a.launch->end_ns, origin);
  }
  if (!a.scope_name.empty()) json["scope"] = std::string{a.scope_name};
}

}  // namespace

TraceCounts trace_counts(const Trace& trace) {
  TraceCounts counts;
  static_cast<TraceLosses&>(counts) = trace;
  counts.kernels = trace.kernels.size();
  counts.memcpys = trace.memcpys.size();
  counts.memsets = trace.memsets.size();
  counts.api_calls = trace.api_calls.size();
  return counts;
}

Out counts_json(const TraceCounts& c) {
  return Out{{"kernels", c.kernels},
             {"memcpys", c.memcpys},
             {"memsets", c.memsets},
             {"api_calls", c.api_calls},
             {"dropped_records", c.dropped_records},
             {"zero_timestamp_records", c.zero_timestamp_records},
             {"inverted_timestamp_records", c.inverted_timestamp_records},
             {"unattributed_kernels", c.unattributed_kernels},
             {"kernels_before_launch", c.kernels_before_launch},
             {"unknown_records", c.unknown_records}};
}

Out kernel_summary_json(const KernelSummary& row, const std::string& path) {
  Out json{{"name", row.name},
           {"instances", row.instances},
           {"total_ns", row.total_ns},
           {"time_percent", finite(row.time_percent, path + ".time_percent")},
           {"average_ns", finite(row.average_ns, path + ".average_ns")},
           {"median_ns", finite(row.median_ns, path + ".median_ns")},
           {"min_ns", row.min_ns},
           {"max_ns", row.max_ns}};
  if (row.stddev_ns) json["stddev_ns"] = finite(*row.stddev_ns, path + ".stddev_ns");
  // The format has no null: a launch configuration that varies is a flag, not "grid": null.
  if (row.mixed_launch_config) {
    json["mixed_launch_config"] = true;
  } else {
    json["grid"] = dim(row.grid);
    json["block"] = dim(row.block);
  }
  return json;
}

Out range_summary_json(const RangeSummary& row, const std::string& path) {
  Out json{{"name", row.name}};
  if (!row.domain.empty()) json["domain"] = row.domain;
  json["instances"] = row.instances;
  json["total_ns"] = row.total_ns;
  json["median_ns"] = finite(row.median_ns, path + ".median_ns");
  json["kernels"] = row.kernels;
  json["kernel_time_ns"] = row.kernel_time_ns;
  json["self_kernels"] = row.self_kernels;
  json["self_kernel_time_ns"] = row.self_kernel_time_ns;
  return json;
}

Out kernel_json(const KernelActivity& k, std::uint64_t origin) {
  Out json{{"name", std::string{k.name}}};
  if (!k.mangled_name.empty() && k.mangled_name != k.name) {
    json["mangled_name"] = std::string{k.mangled_name};
  }
  put_span(json, k);
  json["grid"] = dim(k.grid);
  json["block"] = dim(k.block);
  json["registers_per_thread"] = k.registers_per_thread;
  json["static_shared_memory_bytes"] = k.static_shared_memory_bytes;
  json["dynamic_shared_memory_bytes"] = k.dynamic_shared_memory_bytes;
  put_times(json, k, origin);
  if (const auto enqueue = k.enqueue_ns()) json["enqueue_ns"] = *enqueue;
  if (const auto delay = k.queue_delay_ns()) json["queue_delay_ns"] = *delay;
  put_graph(json, k);
  put_attribution(json, k, origin);
  return json;
}

Out memcpy_json(const MemcpyActivity& m, std::uint64_t origin) {
  Out json{{"kind", std::string{to_string(m.kind)}},
           {"source_kind", std::string{to_string(m.source_kind)}},
           {"destination_kind", std::string{to_string(m.destination_kind)}},
           {"bytes", m.bytes}};
  put_span(json, m);
  put_times(json, m, origin);
  if (m.source_device >= 0) json["source_device"] = m.source_device;
  if (m.destination_device >= 0) json["destination_device"] = m.destination_device;
  put_graph(json, m);
  put_attribution(json, m, origin);
  return json;
}

Out memset_json(const MemsetActivity& m, std::uint64_t origin) {
  Out json{{"value", m.value},
           {"bytes", m.bytes},
           {"memory_kind", std::string{to_string(m.memory_kind)}}};
  put_span(json, m);
  put_times(json, m, origin);
  put_graph(json, m);
  put_attribution(json, m, origin);
  return json;
}

Out api_call_json(const ApiCall& call, std::uint64_t origin) {
  Out json{{"name", std::string{call.name}},
           {"api", api_kind(call.kind)},
           {"thread_id", call.thread_id}};
  if (call.process_id != 0) json["process_id"] = call.process_id;
  json["start_ns"] = relative(call.start_ns, origin);
  json["duration_ns"] = call.duration_ns();
  if (call.return_value != 0) json["return_value"] = call.return_value;
  if (!call.scope_name.empty()) json["scope"] = std::string{call.scope_name};
  return json;
}

namespace {

// The format's start_ns are unsigned offsets from origin_ns.
template <class Record>
void require_after_origin(const Record& record, const char* key, std::size_t i,
                          std::uint64_t origin) {
  if (record.start_ns < origin) {
    throw Error(std::string{"cannot write report: trace."} + key + "[" + std::to_string(i) +
                "]: starts before origin_ns; set origin_ns to the earliest start");
  }
}

template <class Record, class Write>
Out records_json(const std::vector<Record>& records, const char* key, std::uint64_t origin,
                 Write write) {
  Out json = Out::array();
  for (std::size_t i = 0; i < records.size(); ++i) {
    require_after_origin(records[i], key, i, origin);
    json.push_back(write(records[i], origin));
  }
  return json;
}

}  // namespace

namespace {

// Everything but the record lists, in the section's key order up to origin_ns.
Out section_head_json(const TraceSection& trace) {
  Out json;
  json["counts"] = counts_json(trace.counts);
  Out summary = Out::array();
  for (std::size_t i = 0; i < trace.kernel_summary.size(); ++i) {
    summary.push_back(kernel_summary_json(trace.kernel_summary[i],
                                          "trace.kernel_summary[" + std::to_string(i) + "]"));
  }
  json["kernel_summary"] = std::move(summary);
  // Written only when there are ranges, so other reports stay byte for byte what they were.
  if (!trace.range_summary.empty()) {
    Out ranges = Out::array();
    for (std::size_t i = 0; i < trace.range_summary.size(); ++i) {
      ranges.push_back(range_summary_json(trace.range_summary[i],
                                          "trace.range_summary[" + std::to_string(i) + "]"));
    }
    json["range_summary"] = std::move(ranges);
  }
  json["origin_ns"] = trace.origin_ns;
  return json;
}

std::string spaces(int levels) {
  return std::string(static_cast<std::size_t>(levels) * 2, ' ');
}

// `"key": [ ... ]` as a member of an object nested `levels` deep, one record at a time.
template <class Record, class Write>
void append_records(std::string& out, int levels, const char* key,
                    const std::vector<Record>& records, std::uint64_t origin, bool check_origin,
                    Write write) {
  out += ",\n" + spaces(levels + 1) + "\"" + key + "\": ";
  if (records.empty()) {
    out += "[]";
    return;
  }
  out += '[';
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (check_origin) require_after_origin(records[i], key, i, origin);
    out += i == 0 ? "\n" : ",\n";
    out += spaces(levels + 2);
    out += io::nested_json(io::dump_json(write(records[i], origin), 2), levels + 2);
  }
  out += '\n' + spaces(levels + 1) + ']';
}

}  // namespace

// The text of nested_json(dump_json(trace_section_json(trace), 2), levels), built record by
// record: a section of 20,000 kernels as one JSON tree costs several times its text, which
// was the largest part of `kerntime run`'s memory at the end of a process.
std::string trace_section_text(const TraceSection& trace, int levels) {
  std::string out = io::nested_json(io::dump_json(section_head_json(trace), 2), levels);
  out.resize(out.size() - (spaces(levels).size() + 2));  // "\n" + indent + "}"
  append_records(out, levels, "kernels", trace.kernels, trace.origin_ns, true, kernel_json);
  append_records(out, levels, "memcpys", trace.memcpys, trace.origin_ns, true, memcpy_json);
  append_records(out, levels, "memsets", trace.memsets, trace.origin_ns, true, memset_json);
  if (!trace.api_calls.empty()) {
    append_records(out, levels, "api_calls", trace.api_calls, trace.origin_ns, false,
                   api_call_json);
  }
  out +=
      ",\n" + spaces(levels + 1) + "\"omitted_records\": " + std::to_string(trace.omitted_records);
  out += '\n' + spaces(levels) + '}';
  return out;
}

Out trace_section_json(const TraceSection& trace) {
  Out json = section_head_json(trace);
  json["kernels"] = records_json(trace.kernels, "kernels", trace.origin_ns, kernel_json);
  json["memcpys"] = records_json(trace.memcpys, "memcpys", trace.origin_ns, memcpy_json);
  json["memsets"] = records_json(trace.memsets, "memsets", trace.origin_ns, memset_json);
  // API calls often precede the first GPU record: their start_ns are signed, like a launch's.
  if (!trace.api_calls.empty()) {
    Out calls = Out::array();
    for (const ApiCall& call : trace.api_calls)
      calls.push_back(api_call_json(call, trace.origin_ns));
    json["api_calls"] = std::move(calls);
  }
  json["omitted_records"] = trace.omitted_records;
  return json;
}

}  // namespace kerntime::report
