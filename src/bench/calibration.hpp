// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "bench/device_resources.hpp"

namespace kerntime {
class Tracer;
}

namespace kerntime::bench {

/// What one calibration of a device gives.
struct Calibration {
  /// The device's launch floor: the median event time of an empty kernel queued behind the
  /// blocking kernel (no flush). Subtracting it from a cold event time removes what the event
  /// pair and the launch add around any kernel, and also the empty kernel's own GPU time.
  double floor_ns = 0.0;
  /// With CUPTI: the median CUPTI span of that empty kernel over the same samples, its own GPU
  /// time, which every kernel has too, so the events-only headline adds it back. Empty without
  /// a Tracer, or when fewer than half of the samples got a record.
  std::optional<double> fixed_cost_ns;
};

/// Calibrates on 101 samples after 5 warm-up samples, each run while the host only waits (no
/// sample queued during another); `tracer` (active, or nullptr) also gives the fixed cost.
/// Throws kerntime::Error when no sample is valid.
Calibration calibrate(DeviceResources& resources, Tracer* tracer);

}  // namespace kerntime::bench
