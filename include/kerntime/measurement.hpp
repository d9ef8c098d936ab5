// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kerntime/counter.hpp>
#include <kerntime/export.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime {

/// How the benchmark engine takes a sample (docs/benchmarks.md).
enum class MeasureMode {
  /// One call per sample, L2 flushed first, queued behind a blocking kernel so that the timed
  /// window holds GPU execution only: the latency of one cold call.
  cold,
  /// A batch of back-to-back calls per sample, queued behind the blocking kernel, caches warm:
  /// per-call throughput.
  hot,
  /// A captured CUDA graph of a batch of calls, replayed once per sample: per-call throughput
  /// without host launch cost, for calls shorter than a launch takes.
  graph,
};

/// "cold", "hot", "graph".
KERNTIME_API std::string_view to_string(MeasureMode mode);
/// Parses "cold", "hot" or "graph"; throws kerntime::Error listing the choices.
KERNTIME_API MeasureMode parse_measure_mode(std::string_view name);

/// Why sampling stopped.
enum class StopReason {
  fixed_count,  ///< the requested number of samples was taken
  stable,       ///< the confidence interval of the median is within the target
  noise,        ///< the relative standard deviation is below the target
  max_samples,  ///< the sample cap was reached before the estimate was stable
  timeout,      ///< the time limit ran out before the estimate was stable
};

/// "fixed-count", "stable", "noise", "max-samples", "timeout".
KERNTIME_API std::string_view to_string(StopReason reason);

/// One sample as the engine took it. Times are per call of the launcher (a hot or graph sample
/// of a batch of N calls is divided by N).
struct SampleRecord {
  double event_ns = 0.0;               ///< the cudaEvent pair around the sample
  std::optional<double> cupti_ns;      ///< GPU span of the sample's kernels, copies and memsets
  std::optional<double> sm_clock_mhz;  ///< SM clock over the sample (cycles over %globaltimer)
  bool valid = true;              ///< false: the blocking kernel gave up, the times are meaningless
  bool throttled = false;         ///< the SM clock sat under the throttle threshold
  double host_overhead_ns = 0.0;  ///< host time of the engine's own work for this sample
};

/// The result of one measurement: every sample, the statistics of those that count, the reason
/// sampling stopped and the rates of the declared work.
struct Measurement {
  std::string name;  ///< e.g. "saxpy/n=16777216/cold"; unique within a report
  MeasureMode mode = MeasureMode::cold;
  int device = 0;
  /// What the headline is: "cupti-kernel" (CUPTI GPU span, whenever a Tracer delivered one),
  /// "cuda-event-corrected" (cold event time minus the device's calibrated launch floor) or
  /// "cuda-event-batch" (hot or graph event time divided by the batch).
  std::string headline_timer;
  std::vector<double> headline_ns;  ///< per counted sample (valid and not throttled)
  Statistics headline;
  Statistics events;                  ///< raw cudaEvent time per call of the counted samples
  std::optional<Statistics> cupti;    ///< CUPTI span per call, when the Tracer delivered it
  std::vector<SampleRecord> samples;  ///< all samples in order, excluded ones included

  std::size_t warmup_samples = 0;
  std::size_t batch_size = 1;  ///< launcher calls per sample
  std::size_t invalid_samples = 0;
  std::size_t throttled_samples = 0;
  bool blocking_kernel = true;  ///< false after a timeout: launch gaps are inside the events
  bool l2_flushed = false;
  /// Cold mode: the median event time of an empty kernel behind the blocking kernel on this
  /// device. The events-only headline is event time - event_floor_ns + kernel_fixed_cost_ns.
  double event_floor_ns = 0.0;
  /// Cold mode: the empty kernel's own GPU time by CUPTI, which every kernel has and which the
  /// floor therefore must not remove (docs/benchmarks.md); empty when no CUPTI calibration of
  /// the device is known, and then an events-only headline reads low by about that much.
  std::optional<double> kernel_fixed_cost_ns;
  /// Where kernel_fixed_cost_ns came from: one of the kFixedCostFrom... names of
  /// measurement_info.hpp; empty when it is not known.
  std::string kernel_fixed_cost_source;
  double normal_sm_clock_mhz = 0.0;  ///< the device's peak SM clock, the throttle reference
  std::optional<double> median_sm_clock_mhz;

  StopReason stop_reason = StopReason::timeout;
  std::string stop_detail;  ///< e.g. "95% CI of the median within +-0.31% after 812 samples"
  /// Half-width of the 95 % interval of the headline median that the stopping rule judges,
  /// relative to the median; empty below 8 samples or for a median of 0.
  std::optional<double> median_ci_half_width;
  double wall_time_s = 0.0;       ///< warm-up and sampling
  double host_overhead_ns = 0.0;  ///< median host time per sample outside the launcher

  Work work;
  Throughput throughput;                 ///< of the headline median
  double peak_bandwidth_gb_per_s = 0.0;  ///< the device's, for the % of peak; 0: unknown
  std::vector<Counter> counters;         ///< as declared; counter_result() gives what each shows
  std::vector<std::string> warnings;
};

/// What a report entry keeps of `m` beside its samples: mode, stop reason, excluded samples,
/// warm-up, batch, L2 flush, blocking kernel, floor and fixed cost, SM clock, work, throughput
/// and counters.
KERNTIME_API MeasurementInfo measurement_info(const Measurement& m);

/// Appends `m` to `report`: an entry named `m.name` with the headline samples (timer
/// `m.headline_timer`) and measurement_info(m), an entry `m.name + "/events"` with the raw
/// event times of the same samples (timer "cuda-event", no `measurement`: the headline entry's
/// describes both), and every warning prefixed with the name.
KERNTIME_API void add_to_report(Report& report, const Measurement& m);

}  // namespace kerntime
