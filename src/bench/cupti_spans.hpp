// SPDX-License-Identifier: Apache-2.0
// Per-sample CUPTI durations: the engine opens one kerntime scope around each sample's calls
// of the launcher, and the Tracer attaches that scope to every kernel, copy and memset the
// calls enqueued (also to graph nodes, through the graph launch inside the scope).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <kerntime/trace.hpp>

namespace kerntime::bench {

/// What CUPTI saw of one sample's activity (kernels, copies and memsets).
struct ScopeTime {
  /// The latest end minus the earliest start: the headline, gaps between the activities
  /// included (docs/timing.md, "Several kernels per call").
  double span_ns = 0.0;
  /// The sum of the activities' own durations: busy GPU time, gaps left out; above the span
  /// when activities overlap (several streams).
  double sum_ns = 0.0;
  std::size_t activities = 0;
};

/// For each scope id in `scope_ids` (ascending), the time of the activity attributed to it or
/// to a scope nested in it. Empty where a scope has no activity in `trace`.
std::vector<std::optional<ScopeTime>> scope_times(const Trace& trace,
                                                  const std::vector<std::uint64_t>& scope_ids);

}  // namespace kerntime::bench
