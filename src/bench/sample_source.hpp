// SPDX-License-Identifier: Apache-2.0
// The seam between the sampling loop (sampler.cpp: warm-up, rounds, stopping rules, throttle
// flags, statistics) and what takes samples: the CUDA engine on a GPU, or a synthetic source in
// the tests, so that every rule is tested without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/measurement.hpp>

#include "bench/fixed_cost.hpp"

namespace kerntime::bench {

/// One sample as a source delivers it: times per launcher call.
struct RawSample {
  double event_ns = 0.0;
  std::optional<double> cupti_ns;          ///< span: first start to last end
  std::optional<double> cupti_sum_ns;      ///< sum of the activities' durations
  std::optional<double> cupti_activities;  ///< kernels, copies and memsets per call
  std::optional<double> sm_clock_mhz;
  std::optional<std::uint64_t> clock_event_reasons;  ///< NVML's, as the sample completed
  std::optional<double> power_w;                     ///< NVML's, in the same reading
  bool valid = true;
  double host_overhead_ns = 0.0;
};

/// What the sampling loop needs from whatever takes the samples.
class SampleSource {
 public:
  virtual ~SampleSource() = default;

  /// Prepares the launcher (first call outside any timed window, graph capture, batch size)
  /// and takes `samples` samples that are thrown away, then more until `min_seconds` passed
  /// (none when `samples` is 0). Returns how many it threw away.
  virtual std::size_t warm_up(std::size_t samples, double min_seconds) = 0;
  /// Takes `count` samples, in order, complete with CUPTI spans where available.
  virtual std::vector<RawSample> take(std::size_t count) = 0;

  /// True when samples carry CUPTI spans (the headline then is CUPTI).
  virtual bool cupti() const = 0;
  /// Subtracted from event times for the events-only headline (cold mode); 0 otherwise.
  virtual double event_floor_ns() const = 0;
  /// Added back to the events-only headline (cold mode): the empty kernel's own GPU time, which
  /// the floor holds and every kernel has; unknown (with the reason) or not cold: no value.
  virtual FixedCost kernel_fixed_cost() const = 0;
  /// The reference for throttling (the device's peak SM clock), MHz; 0: unknown.
  virtual double normal_clock_mhz() const = 0;
  /// Launcher calls per sample.
  virtual std::size_t batch_size() const = 0;
  /// False once the blocking kernel has been given up on.
  virtual bool blocking() const = 0;
  virtual bool l2_flushed() const = 0;
  /// Warnings raised since the last call (timeouts, missing CUPTI records, ...).
  virtual std::vector<std::string> take_warnings() = 0;
  /// Seconds since an arbitrary start: wall time, or a synthetic clock in tests.
  virtual double now_s() const = 0;
  /// Pauses (throttle recovery); a synthetic source advances its clock instead.
  virtual void pause(double seconds) = 0;
};

}  // namespace kerntime::bench
