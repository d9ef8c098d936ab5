// SPDX-License-Identifier: Apache-2.0
// Host API calls by function: the rows of nsys's cuda_api_sum. CUPTI records the driver calls a
// runtime call makes as well as the runtime call, so those are left out by default: counted
// twice, the host time of a launch would show as cudaLaunchKernel and again as cuLaunchKernel.
#include <algorithm>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include <kerntime/trace_summaries.hpp>

#include "trace/value_summary.hpp"

namespace kerntime {
namespace {

using ThreadKey = std::pair<std::uint32_t, std::uint32_t>;  // process, thread

// Per thread, the runtime calls in start order and the latest end among each prefix, so that a
// driver call is inside some runtime call exactly when a call that started no later than it
// ends no earlier (runtime calls may nest too: a callback's).
class RuntimeCalls {
 public:
  explicit RuntimeCalls(const std::vector<ApiCall>& calls) {
    std::map<ThreadKey, std::vector<std::pair<std::uint64_t, std::uint64_t>>> spans;
    for (const ApiCall& call : calls) {
      if (call.kind == ApiKind::runtime) {
        spans[ThreadKey{call.process_id, call.thread_id}].emplace_back(call.start_ns, call.end_ns);
      }
    }
    // A trace's calls are sorted by start already; a report read from a file need not be.
    for (auto& [key, list] : spans) {
      std::sort(list.begin(), list.end());
      Thread& thread = threads_[key];
      for (const auto& [start, end] : list) {
        thread.starts.push_back(start);
        thread.latest_end.push_back(
            thread.latest_end.empty() ? end : std::max(thread.latest_end.back(), end));
      }
    }
  }

  bool encloses(const ApiCall& driver) const {
    const auto it = threads_.find(ThreadKey{driver.process_id, driver.thread_id});
    if (it == threads_.end()) return false;
    const Thread& thread = it->second;
    const auto after =
        std::upper_bound(thread.starts.begin(), thread.starts.end(), driver.start_ns);
    if (after == thread.starts.begin()) return false;
    const auto index = static_cast<std::size_t>(after - thread.starts.begin()) - 1;
    return thread.latest_end[index] >= driver.end_ns;
  }

 private:
  struct Thread {
    std::vector<std::uint64_t> starts;
    std::vector<std::uint64_t> latest_end;
  };
  std::map<ThreadKey, Thread> threads_;
};

template <class Visit>
void for_each_nested_driver_call(const Trace& trace, Visit visit) {
  const RuntimeCalls runtime{trace.api_calls};
  for (const ApiCall& call : trace.api_calls) {
    if (call.kind == ApiKind::driver && runtime.encloses(call)) visit(call);
  }
}

}  // namespace

std::size_t count_nested_driver_calls(const Trace& trace) {
  std::size_t count = 0;
  for_each_nested_driver_call(trace, [&count](const ApiCall&) { ++count; });
  return count;
}

std::vector<ApiCallSummary> summarize_api_calls(const Trace& trace,
                                                const ApiSummaryOptions& options) {
  std::vector<bool> left_out(trace.api_calls.size(), false);
  if (!options.nested_driver_calls) {
    for_each_nested_driver_call(trace, [&](const ApiCall& call) {
      left_out[static_cast<std::size_t>(&call - trace.api_calls.data())] = true;
    });
  }
  std::map<std::string_view, std::vector<std::uint64_t>> functions;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (!left_out[i])
      functions[trace.api_calls[i].name].push_back(trace.api_calls[i].duration_ns());
  }

  std::vector<ApiCallSummary> rows;
  std::uint64_t total_ns = 0;
  for (auto& [name, durations] : functions) {
    ApiCallSummary& row = rows.emplace_back();
    row.name = std::string{name};
    row.duration_ns = trace::summarize_values(durations);
    total_ns += row.duration_ns.total;
  }
  for (ApiCallSummary& row : rows)
    row.time_percent = trace::percent_of(row.duration_ns.total, total_ns);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.duration_ns.total > b.duration_ns.total;
  });
  return rows;
}

}  // namespace kerntime
