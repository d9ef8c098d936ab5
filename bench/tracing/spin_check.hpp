// SPDX-License-Identifier: Apache-2.0
// Part (c) of trace_bench: kernels of known length (spin kernels on %globaltimer). CUPTI's
// duration must lie between the requested time and the requested time plus an empty kernel's
// CUPTI duration (the fixed cost of any kernel, measured in the same run) plus 0.2 us; a single
// cudaEvent pair around the same launch is printed beside it, to show the launch-latency bias.
#pragma once

#include <cstdint>
#include <vector>

#include <kerntime/trace.hpp>
#include <kerntime/tracer.hpp>

#include "checks.hpp"

namespace trace_examples {

/// Slack above requested + empty kernel that the bound allows.
inline constexpr double kSpinSlackNs = 200.0;

struct SpinLength {
  std::uint64_t ns;
  int repetitions;
};

/// The lengths docs/tracing.md reports: 2 us, 10 us, 100 us and 1 ms.
std::vector<SpinLength> default_spin_lengths();

void run_spin_check(kerntime::Tracer& tracer, const std::vector<SpinLength>& lengths,
                    int empty_repetitions, Checks& checks);

}  // namespace trace_examples
