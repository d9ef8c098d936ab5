// SPDX-License-Identifier: Apache-2.0
// Which CUDA API calls enqueue work, by name: those whose API records `kerntime run` keeps when it
// mutes the others. Header-only, so that the benchmark injection that plays kerntime's muting
// (bench/run/cupti_phases_injection.cpp) mutes the same calls without linking kerntime.
#pragma once

#include <string_view>

namespace kerntime::inject {

/// Whether the CUDA API function named `name` (as cuptiGetCallbackName gives it) enqueues work
/// whose records a kernel, copy or memset record correlates with: a launch of any kind, a graph
/// launch, a copy or a memset. These keep their API records when the others are muted.
inline bool enqueues_work(std::string_view name) {
  for (const std::string_view word : {"Launch", "Memcpy", "Memset"}) {
    if (name.find(word) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace kerntime::inject
