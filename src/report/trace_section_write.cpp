// SPDX-License-Identifier: Apache-2.0
// Writes a report's trace section. Fields that hold nothing (no scope, no graph, no launch
// record) are left out rather than written as placeholders, as everywhere in the format.
#include <cmath>
#include <string>

#include <kerntime/error.hpp>

#include "report/trace_section_json.hpp"

namespace kerntime::report_detail {
namespace {

using Out = nlohmann::ordered_json;

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

Out counts_json(const TraceCounts& c) {
  return Out{{"kernels", c.kernels},
             {"memcpys", c.memcpys},
             {"memsets", c.memsets},
             {"api_calls", c.api_calls},
             {"dropped_records", c.dropped_records},
             {"zero_timestamp_records", c.zero_timestamp_records},
             {"inverted_timestamp_records", c.inverted_timestamp_records},
             {"unattributed_kernels", c.unattributed_kernels}};
}

Out summary_json(const KernelSummary& row, const std::string& path) {
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

void put_scope(Out& json, const std::string& scope) {
  if (!scope.empty()) json["scope"] = scope;
}

Out kernel_json(const TraceKernelRecord& k) {
  Out json{{"name", k.name}};
  if (!k.mangled_name.empty() && k.mangled_name != k.name) json["mangled_name"] = k.mangled_name;
  json["device"] = k.device;
  json["stream"] = k.stream;
  json["grid"] = dim(k.grid);
  json["block"] = dim(k.block);
  json["registers_per_thread"] = k.registers_per_thread;
  json["static_shared_memory_bytes"] = k.static_shared_memory_bytes;
  json["dynamic_shared_memory_bytes"] = k.dynamic_shared_memory_bytes;
  json["start_ns"] = k.start_ns;
  json["duration_ns"] = k.duration_ns;
  if (k.enqueue_ns) json["enqueue_ns"] = *k.enqueue_ns;
  if (k.queue_delay_ns) json["queue_delay_ns"] = *k.queue_delay_ns;
  if (k.graph_id != 0) {
    json["graph_id"] = k.graph_id;
    json["graph_node_id"] = k.graph_node_id;
  }
  put_scope(json, k.scope);
  return json;
}

Out memcpy_json(const TraceMemcpyRecord& m) {
  Out json{{"kind", std::string{to_string(m.kind)}},
           {"source_kind", std::string{to_string(m.source_kind)}},
           {"destination_kind", std::string{to_string(m.destination_kind)}},
           {"bytes", m.bytes},
           {"device", m.device},
           {"stream", m.stream},
           {"start_ns", m.start_ns},
           {"duration_ns", m.duration_ns}};
  put_scope(json, m.scope);
  return json;
}

Out memset_json(const TraceMemsetRecord& m) {
  Out json{{"value", m.value},
           {"bytes", m.bytes},
           {"memory_kind", std::string{to_string(m.memory_kind)}},
           {"device", m.device},
           {"stream", m.stream},
           {"start_ns", m.start_ns},
           {"duration_ns", m.duration_ns}};
  put_scope(json, m.scope);
  return json;
}

}  // namespace

nlohmann::ordered_json trace_section_json(const TraceSection& trace) {
  Out json;
  json["counts"] = counts_json(trace.counts);
  Out summary = Out::array();
  for (std::size_t i = 0; i < trace.kernel_summary.size(); ++i) {
    summary.push_back(
        summary_json(trace.kernel_summary[i], "trace.kernel_summary[" + std::to_string(i) + "]"));
  }
  json["kernel_summary"] = std::move(summary);
  json["origin_ns"] = trace.origin_ns;
  json["kernels"] = Out::array();
  for (const TraceKernelRecord& k : trace.kernels)
    json["kernels"].push_back(kernel_json(k));
  json["memcpys"] = Out::array();
  for (const TraceMemcpyRecord& m : trace.memcpys)
    json["memcpys"].push_back(memcpy_json(m));
  json["memsets"] = Out::array();
  for (const TraceMemsetRecord& m : trace.memsets)
    json["memsets"].push_back(memset_json(m));
  json["omitted_records"] = trace.omitted_records;
  return json;
}

}  // namespace kerntime::report_detail
