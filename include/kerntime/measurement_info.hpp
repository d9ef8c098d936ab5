// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/counter.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime {

/// Where the cold events-only headline's kernel fixed cost came from (MeasurementInfo and
/// Measurement::kernel_fixed_cost_source); docs/benchmarks.md explains each.
inline constexpr const char* kFixedCostFromTracer = "tracer";                 ///< the Tracer given
inline constexpr const char* kFixedCostFromBorrowedCupti = "borrowed-cupti";  ///< CUPTI, briefly
inline constexpr const char* kFixedCostFromProcess = "process";  ///< an earlier calibration
inline constexpr const char* kFixedCostFromCache = "cache";      ///< the on-disk cache
/// `kerntime calibrate` in a process of its own, while a tool held CUPTI in this one.
inline constexpr const char* kFixedCostFromProcessOfItsOwn = "calibration-process";

/// How the benchmark engine measured a report entry: what its result tables show beside the
/// time, kept in the report so that `kerntime report` and `kerntime compare` show it from a
/// file. add_to_report() (measurement.hpp) puts a Measurement's on its headline entry;
/// docs/report-format.md has the JSON. The headline timer is the entry's `timer`, the counted
/// samples its `samples`. Text fields are strings, not enums, so that a reader keeps a value a
/// later kerntime adds.
struct MeasurementInfo {
  std::string mode;                ///< "cold", "hot" or "graph"
  std::string stop_reason;         ///< "fixed-count", "stable", "noise", "max-samples", "timeout"
  std::string stop_detail;         ///< e.g. "95% CI of the median within +-0.31% after 812 samples"
  std::size_t warmup_samples = 0;  ///< taken and thrown away before sampling
  std::size_t invalid_samples = 0;    ///< left out: the blocking kernel gave up
  std::size_t throttled_samples = 0;  ///< left out: the SM clock was under the threshold
  std::size_t batch_size = 1;         ///< launcher calls per sample
  bool l2_flushed = false;
  bool blocking_kernel = true;  ///< false: launch gaps are inside the event times
  /// Cold mode: median event time of an empty kernel behind the blocking kernel; 0 otherwise.
  double event_floor_ns = 0.0;
  /// Cold mode: the empty kernel's own GPU time (CUPTI), which every kernel has and events
  /// cannot see; the events-only headline is event time - floor + this. Empty: not known, so
  /// an events-only headline reads low by about this much.
  std::optional<double> kernel_fixed_cost_ns;
  std::string kernel_fixed_cost_source;  ///< one of the kFixedCostFrom... names; empty: none
  /// With a CUPTI headline (a span: first start to last end), the median sum of the
  /// activities' own durations, gaps between them left out (docs/timing.md).
  std::optional<double> median_cupti_sum_ns;
  /// With a CUPTI headline: the median number of kernels, copies and memsets per call.
  std::optional<double> activities_per_call;
  std::optional<double> median_sm_clock_mhz;
  double normal_sm_clock_mhz = 0.0;  ///< the throttle reference, the device's peak SM clock
  /// Counted samples during which NVML said a power or thermal cap or a hardware slowdown held
  /// the clock down; they count (they are the GPU's speed then) and the measurement says so.
  std::size_t slowed_samples = 0;
  /// The reasons of those samples, comma-separated ("sw-power-cap,hw-thermal"); "" when none.
  std::string clock_event_reasons;
  std::optional<double> median_power_w;  ///< NVML's power draw over the counted samples
  Work work;                             ///< declared per launcher call
  /// Rates of `work` at the entry's median; a reader recomputes them from its samples.
  Throughput throughput;
  double peak_bandwidth_gb_per_s = 0.0;  ///< what the % of peak is against; 0: unknown
  /// Custom columns as declared (names unique); counter_result() at the entry's median gives
  /// what each shows.
  std::vector<Counter> counters;
  double wall_time_s = 0.0;       ///< warm-up and sampling; 0: not known
  double host_overhead_ns = 0.0;  ///< median host time per sample outside the launcher
};

}  // namespace kerntime
