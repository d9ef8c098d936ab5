// SPDX-License-Identifier: Apache-2.0
// The per-scope summary. A kernel belongs to its innermost scope ("self") and, like the scope's
// cudaEvent window, to every enclosing one ("inclusive"). GPU spans are min(start)..max(end) per
// opening and stream (kineto's GpuUserEventMap does the same), reported beside the sum of
// kernel durations: they differ where kernels overlap or leave gaps.
#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include <kerntime/trace.hpp>

namespace kerntime {
namespace {

struct Span {
  std::uint64_t start = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t end = 0;
  std::size_t kernels = 0;
  std::uint64_t kernel_time = 0;

  void add(const KernelActivity& kernel) {
    start = std::min(start, kernel.start_ns);
    end = std::max(end, kernel.end_ns);
    ++kernels;
    kernel_time += kernel.duration_ns();
  }
  std::uint64_t length() const { return kernels == 0 ? 0 : end - start; }
};

using StreamKey = std::pair<std::uint32_t, std::uint32_t>;  // device, stream

/// One opening of a scope and the kernels inside it (nested scopes included).
struct Opening {
  Span total;
  std::map<StreamKey, Span> streams;
};

}  // namespace

std::vector<ScopeSummary> summarize_scopes(const Trace& trace) {
  std::vector<ScopeSummary> rows;
  std::unordered_map<std::string_view, std::size_t> row_of;
  std::unordered_map<std::uint64_t, std::size_t> row_of_scope;
  for (const TraceScope& scope : trace.scopes) {  // sorted by id: order of opening
    auto [it, inserted] = row_of.emplace(scope.name, rows.size());
    if (inserted) rows.emplace_back().name = std::string{scope.name};
    ++rows[it->second].instances;
    row_of_scope.emplace(scope.id, it->second);
  }

  std::unordered_map<std::uint64_t, Opening> openings;
  std::vector<std::map<StreamKey, StreamSpan>> streams(rows.size());
  std::vector<std::size_t> counted;  // rows already credited with the current kernel
  for (const KernelActivity& kernel : trace.kernels) {
    if (kernel.scope_id == 0) continue;
    counted.clear();
    bool innermost = true;
    const TraceScope* scope = trace.find_scope(kernel.scope_id);
    for (std::size_t depth = 0; scope != nullptr && depth <= trace.scopes.size(); ++depth) {
      const std::size_t row = row_of_scope.at(scope->id);
      Opening& opening = openings[scope->id];
      opening.total.add(kernel);
      opening.streams[{kernel.device, kernel.stream}].add(kernel);
      // A scope nested in one of the same name (recursion) must not count a kernel twice.
      if (std::find(counted.begin(), counted.end(), row) == counted.end()) {
        counted.push_back(row);
        ScopeSummary& summary = rows[row];
        ++summary.kernels;
        summary.kernel_time_ns += kernel.duration_ns();
        if (innermost) {
          ++summary.self_kernels;
          summary.self_kernel_time_ns += kernel.duration_ns();
        }
        StreamSpan& stream = streams[row][{kernel.device, kernel.stream}];
        stream.device = kernel.device;
        stream.stream = kernel.stream;
        ++stream.kernels;
        stream.kernel_time_ns += kernel.duration_ns();
      }
      innermost = false;
      scope = trace.find_scope(scope->parent_id);
    }
  }

  for (const TraceScope& scope : trace.scopes) {
    auto it = openings.find(scope.id);
    if (it == openings.end()) continue;
    const std::size_t row = row_of_scope.at(scope.id);
    rows[row].instance_span_ns.push_back(static_cast<double>(it->second.total.length()));
    rows[row].instance_kernel_time_ns.push_back(static_cast<double>(it->second.total.kernel_time));
    for (const auto& [key, span] : it->second.streams)
      streams[row][key].span_ns += span.length();
  }
  for (std::size_t row = 0; row < rows.size(); ++row) {
    for (const auto& entry : streams[row])
      rows[row].streams.push_back(entry.second);
  }
  return rows;
}

}  // namespace kerntime
