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

/// For each scope id in `scope_ids` (ascending), the GPU span of its activity: the latest end
/// minus the earliest start over the kernels, copies and memsets attributed to it or to a scope
/// nested in it. Empty where a scope has no activity in `trace`.
std::vector<std::optional<double>> scope_spans(const Trace& trace,
                                               const std::vector<std::uint64_t>& scope_ids);

}  // namespace kerntime::bench
