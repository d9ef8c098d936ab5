// SPDX-License-Identifier: Apache-2.0
// The sampling loop shared by every mode and by the synthetic tests: warm-up, rounds of
// samples until a stopping rule is met, throttle flags, the headline, statistics, throughput.
#pragma once

#include <kerntime/measure.hpp>
#include <kerntime/measurement.hpp>

#include "bench/sample_source.hpp"

namespace kerntime::bench {

/// Runs a whole measurement on `source`. `peak_gb_per_s` (0: unknown) turns the declared work
/// into a share of the device's peak bandwidth.
Measurement run_measurement(SampleSource& source, const MeasureOptions& options, int device,
                            double peak_gb_per_s);

/// True when a sample's clock is known and below threshold x normal (normal 0: never).
bool is_throttled(const std::optional<double>& clock_mhz, double normal_mhz, double threshold);

}  // namespace kerntime::bench
