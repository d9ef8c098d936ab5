// SPDX-License-Identifier: Apache-2.0
// The per-kernel summary: the figures of `nsys stats` cuda_gpu_kern_gb_sum, from the one value
// summary every nsys-style row uses (trace/value_summary.hpp): no bootstrap, so a million
// kernels summarize quickly.
#include <algorithm>
#include <map>
#include <tuple>

#include <kerntime/trace.hpp>

#include "trace/value_summary.hpp"

namespace kerntime {
namespace {

using GroupKey = std::tuple<std::string_view, std::uint32_t, std::uint32_t, std::uint32_t,
                            std::uint32_t, std::uint32_t, std::uint32_t>;

struct Group {
  const KernelActivity* first = nullptr;
  bool mixed = false;
  std::vector<std::uint64_t> durations;
};

KernelSummary summarize(const Group& group) {
  std::vector<std::uint64_t> durations = group.durations;
  const ValueSummary figures = trace::summarize_values(durations);
  // In KernelSummary's field order; the time share is set once every group is summarized.
  return KernelSummary{std::string{group.first->name},
                       figures.count,
                       figures.total,
                       0.0,
                       figures.average,
                       figures.median,
                       figures.min,
                       figures.max,
                       figures.stddev,
                       group.first->grid,
                       group.first->block,
                       group.mixed};
}

}  // namespace

std::vector<KernelSummary> summarize_kernels(const Trace& trace,
                                             const KernelSummaryOptions& options) {
  std::map<GroupKey, Group> groups;
  for (const KernelActivity& kernel : trace.kernels) {
    GroupKey key{kernel.name, 0, 0, 0, 0, 0, 0};
    if (options.by_launch_config) {
      key = GroupKey{kernel.name,    kernel.grid.x,  kernel.grid.y, kernel.grid.z,
                     kernel.block.x, kernel.block.y, kernel.block.z};
    }
    Group& group = groups[key];
    if (group.first == nullptr) {
      group.first = &kernel;
    } else if (kernel.grid != group.first->grid || kernel.block != group.first->block) {
      group.mixed = true;
    }
    group.durations.push_back(kernel.duration_ns());
  }

  std::vector<KernelSummary> rows;
  rows.reserve(groups.size());
  std::uint64_t total = 0;
  for (const auto& entry : groups) {
    rows.push_back(summarize(entry.second));
    total += rows.back().total_ns;
  }
  for (KernelSummary& row : rows) {
    row.time_percent =
        total == 0 ? 0.0 : 100.0 * static_cast<double>(row.total_ns) / static_cast<double>(total);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const KernelSummary& a, const KernelSummary& b) {
    return a.total_ns > b.total_ns;
  });
  return rows;
}

}  // namespace kerntime
