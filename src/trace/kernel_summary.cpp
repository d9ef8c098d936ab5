// SPDX-License-Identifier: Apache-2.0
// The per-kernel summary: the figures of `nsys stats` cuda_gpu_kern_gb_sum. The median is the
// stats layer's (quantile_sorted), so it is the same figure a report's statistics give; the rest
// is one pass over the sorted durations (no bootstrap), so a million kernels summarize quickly.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <kerntime/statistics.hpp>
#include <kerntime/trace.hpp>

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
  std::vector<double> sorted(group.durations.begin(), group.durations.end());
  std::sort(sorted.begin(), sorted.end());
  KernelSummary row;
  row.name = std::string{group.first->name};
  row.instances = sorted.size();
  row.grid = group.first->grid;
  row.block = group.first->block;
  row.mixed_launch_config = group.mixed;
  row.min_ns = *std::min_element(group.durations.begin(), group.durations.end());
  row.max_ns = *std::max_element(group.durations.begin(), group.durations.end());
  for (const std::uint64_t d : group.durations)
    row.total_ns += d;
  const double n = static_cast<double>(sorted.size());
  row.average_ns = static_cast<double>(row.total_ns) / n;
  row.median_ns = quantile_sorted(sorted, 0.5);
  if (sorted.size() >= 2) {
    double squares = 0.0;
    for (const double d : sorted) {
      const double delta = d - row.average_ns;
      squares += delta * delta;
    }
    row.stddev_ns = std::sqrt(squares / (n - 1.0));
  }
  return row;
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
