// SPDX-License-Identifier: Apache-2.0
// Part (a) of trace_bench: the host time a launch costs untraced, under a bare CUPTI baseline
// and under a kerntime::Tracer. Each configuration runs in its own process (CUPTI cannot be
// fully removed from a process once it ran), and rounds alternate the configurations so that
// drift hits all of them alike.
#pragma once

#include <string>

#include "checks.hpp"

namespace trace_examples {

struct OverheadSettings {
  int rounds = 5;      ///< processes per configuration
  int batches = 100;   ///< per variant and process; each sample is one batch's mean
  int launches = 200;  ///< per batch
};

/// The host time per launch that tracing may add beyond CUPTI's own (kerntime's target).
inline constexpr double kOverheadLimitNs = 300.0;

/// The child: measures `config` ("untraced", "bare-cupti" or "kerntime") in this process and
/// prints one line per sample on stdout. Returns the exit status.
int run_overhead_child(const std::string& config, const OverheadSettings& settings);

/// The parent: runs the children through `self` (this executable), prints the table and checks
/// kerntime's cost against the bare baseline.
void run_overhead(const std::string& self, const OverheadSettings& settings, Checks& checks);

}  // namespace trace_examples
