// SPDX-License-Identifier: Apache-2.0
// --repetitions N: a configuration measured N times in one process becomes one measurement,
// one run in the report, so that `kerntime compare` still sees one run per process.
#pragma once

#include <vector>

#include <kerntime/measurement.hpp>

namespace kerntime::main {

/// One measurement of a configuration from its repetitions (at least one, all of one name), in
/// the order they were taken: every sample of each, statistics over all of them, the counts and
/// wall times summed, the least settled stop reason, each warning once.
Measurement combine_repetitions(const std::vector<Measurement>& repetitions);

}  // namespace kerntime::main
