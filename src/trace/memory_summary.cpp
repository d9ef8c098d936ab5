// SPDX-License-Identifier: Apache-2.0
// Copies and memsets by operation: the rows of nsys's cuda_gpu_mem_time_sum and
// cuda_gpu_mem_size_sum, with nsys's operation names.
#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include <kerntime/trace_summaries.hpp>

#include "trace/value_summary.hpp"

namespace kerntime {
namespace {

std::string_view operation_name(MemcpyKind kind) {
  switch (kind) {
    case MemcpyKind::host_to_device:
      return "[CUDA memcpy Host-to-Device]";
    case MemcpyKind::device_to_host:
      return "[CUDA memcpy Device-to-Host]";
    case MemcpyKind::device_to_device:
      return "[CUDA memcpy Device-to-Device]";
    case MemcpyKind::host_to_host:
      return "[CUDA memcpy Host-to-Host]";
    case MemcpyKind::peer_to_peer:
      return "[CUDA memcpy Peer-to-Peer]";
    case MemcpyKind::host_to_array:
      return "[CUDA memcpy Host-to-Array]";
    case MemcpyKind::array_to_host:
      return "[CUDA memcpy Array-to-Host]";
    case MemcpyKind::array_to_array:
      return "[CUDA memcpy Array-to-Array]";
    case MemcpyKind::array_to_device:
      return "[CUDA memcpy Array-to-Device]";
    case MemcpyKind::device_to_array:
      return "[CUDA memcpy Device-to-Array]";
    case MemcpyKind::unknown:
      break;
  }
  return "[CUDA memcpy Unknown]";
}

struct Operation {
  std::vector<std::uint64_t> durations;
  std::vector<std::uint64_t> bytes;

  void add(const GpuSpan& span, std::uint64_t size) {
    durations.push_back(span.duration_ns());
    bytes.push_back(size);
  }
};

}  // namespace

std::vector<MemoryOperationSummary> summarize_memory_operations(const Trace& trace) {
  std::map<std::string_view, Operation> operations;
  for (const MemcpyActivity& copy : trace.memcpys)
    operations[operation_name(copy.kind)].add(copy, copy.bytes);
  for (const MemsetActivity& set : trace.memsets)
    operations["[CUDA memset]"].add(set, set.bytes);

  std::vector<MemoryOperationSummary> rows;
  std::uint64_t total_ns = 0;
  for (auto& [name, operation] : operations) {
    MemoryOperationSummary& row = rows.emplace_back();
    row.operation = std::string{name};
    row.duration_ns = trace::summarize_values(operation.durations);
    row.bytes = trace::summarize_values(operation.bytes);
    total_ns += row.duration_ns.total;
  }
  for (MemoryOperationSummary& row : rows)
    row.time_percent = trace::percent_of(row.duration_ns.total, total_ns);
  // The map is ordered by name, so a stable sort leaves ties in name order.
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.duration_ns.total > b.duration_ns.total;
  });
  return rows;
}

}  // namespace kerntime
