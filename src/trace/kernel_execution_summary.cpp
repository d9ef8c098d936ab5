// SPDX-License-Identifier: Apache-2.0
// Each kernel's launch call, queue and execution: the rows of nsys's cuda_kern_exec_sum, with its
// definitions. The queue is measured from the end of the launch call (the kernel is enqueued
// somewhere inside it, so the real wait is a little longer), and a kernel that starts before
// the call returns has no queue time; the total runs from the call's start to the later of its
// end and the kernel's end.
#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <vector>

#include <kerntime/trace_summaries.hpp>

#include "trace/value_summary.hpp"

namespace kerntime {
namespace {

// Ordered so that ties of the sort below fall in kernel name order.
using GroupKey = std::tuple<std::string_view, std::string_view, std::uint32_t, std::uint32_t,
                            std::uint32_t>;  // kernel, launch function, process, thread, device

struct Group {
  std::vector<std::uint64_t> total;
  std::vector<std::uint64_t> api;
  std::vector<std::uint64_t> queue;
  std::vector<std::uint64_t> kernel;
};

}  // namespace

std::vector<KernelExecutionSummary> summarize_kernel_executions(const Trace& trace) {
  std::map<GroupKey, Group> groups;
  for (const KernelActivity& k : trace.kernels) {
    if (!k.launch) continue;
    const LaunchCall& call = *k.launch;
    Group& group = groups[GroupKey{k.name, call.name, call.process_id, call.thread_id, k.device}];
    group.api.push_back(call.enqueue_ns());
    if (k.start_ns >= call.end_ns) group.queue.push_back(k.start_ns - call.end_ns);
    group.kernel.push_back(k.duration_ns());
    group.total.push_back(std::max(call.end_ns, k.end_ns) - call.start_ns);
  }

  std::vector<KernelExecutionSummary> rows;
  rows.reserve(groups.size());
  for (auto& [key, group] : groups) {
    KernelExecutionSummary& row = rows.emplace_back();
    row.kernel_name = std::string{std::get<0>(key)};
    row.api_name = std::string{std::get<1>(key)};
    row.process_id = std::get<2>(key);
    row.thread_id = std::get<3>(key);
    row.device = std::get<4>(key);
    row.total_ns = trace::summarize_values(group.total);
    row.api_ns = trace::summarize_values(group.api);
    row.queue_ns = trace::summarize_values(group.queue);
    row.kernel_ns = trace::summarize_values(group.kernel);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.total_ns.average > b.total_ns.average;
  });
  return rows;
}

}  // namespace kerntime
