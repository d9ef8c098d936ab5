// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kerntime/export.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>

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
  double event_ns = 0.0;  ///< the cudaEvent pair around the sample
  /// GPU span of the sample's kernels, copies and memsets: first start to last end.
  std::optional<double> cupti_ns;
  /// The sum of those kernels', copies' and memsets' own durations: busy time, without the
  /// gaps between them (docs/timing.md, "Several kernels per call").
  std::optional<double> cupti_sum_ns;
  std::optional<double> sm_clock_mhz;  ///< SM clock over the sample (cycles over %globaltimer)
  /// NVML's clocks event reasons as the sample completed (a reading at most 1 ms old), or none
  /// without NVML. Bit 0x4 is the software power cap; docs/benchmarks.md names the rest.
  std::optional<std::uint64_t> clock_event_reasons;
  std::optional<double> power_w;  ///< NVML's power draw in the same reading
  bool valid = true;              ///< false: the blocking kernel gave up, the times are meaningless
  bool throttled = false;         ///< the SM clock sat under the throttle threshold
  double host_overhead_ns = 0.0;  ///< host time of the engine's own work for this sample
};

/// The result of one measurement: every sample, the statistics of those that count, and how it
/// was measured. `info` is the part a report keeps beside the samples (measurement_info.hpp),
/// one value, so that a field added there reaches the report, its file and merges at once.
struct Measurement {
  std::string name;  ///< e.g. "saxpy/n=16777216/cold"; unique within a report
  int device = 0;
  /// What the headline is: "cupti-kernel" (CUPTI GPU span, whenever a Tracer delivered one),
  /// "cuda-event-corrected" (cold event time minus the device's calibrated launch floor) or
  /// "cuda-event-batch" (hot or graph event time divided by the batch).
  std::string headline_timer;
  std::vector<double> headline_ns;  ///< per counted sample (valid and not throttled)
  Statistics headline;
  Statistics events;                    ///< raw cudaEvent time per call of the counted samples
  std::optional<Statistics> cupti;      ///< CUPTI span per call, when the Tracer delivered it
  std::optional<Statistics> cupti_sum;  ///< CUPTI sum of durations per call, likewise
  std::vector<SampleRecord> samples;    ///< all samples in order, excluded ones included
  /// Half-width of the 95 % interval of the headline median that the stopping rule judges,
  /// relative to the median; empty below 8 samples or for a median of 0.
  std::optional<double> median_ci_half_width;
  /// Mode, stop reason, excluded samples, calibration, clock, work, rates and counters.
  MeasurementInfo info;
  std::vector<std::string> warnings;
};

/// Appends `m` to `report`: an entry named `m.name` with the headline samples (timer
/// `m.headline_timer`) and `m.info`, an entry `m.name + "/events"` with the raw
/// event times of the same samples (timer "cuda-event", no `measurement`: the headline entry's
/// describes both), and every warning prefixed with the name.
KERNTIME_API void add_to_report(Report& report, const Measurement& m);

}  // namespace kerntime
