// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/counter.hpp>
#include <kerntime/export.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime {

class Tracer;

/// When sampling stops. Checked on the headline times of the samples that count (valid, not
/// throttled), after every round of samples; the first rule met ends the measurement, and the
/// Measurement names it. The defaults stop as soon as the median is known to +-0.5 %.
struct StoppingCriteria {
  /// Never stop before this many samples count.
  std::size_t min_samples = 20;
  /// Never stop (except at the timeout) before the counted samples add up to this much GPU
  /// time, in seconds (NVBench's --min-time, which defaults to 0.5 s; here 0: off).
  double min_time_s = 0.0;
  /// Stop when stddev / mean falls to this (0.005 = 0.5 %, NVBench's --max-noise); 0: off.
  double max_noise = 0.005;
  /// Stop when the 95 % confidence interval of the median lies within +-this share of the
  /// median (0.005 = 0.5 %); 0: off.
  double max_ci_half_width = 0.005;
  /// ... or within +-this many nanoseconds, whatever the median: GPU timestamps tick in 32 ns
  /// on current GPUs, so a narrower interval cannot be resolved, and a median near 0 (work no
  /// longer than the launch floor, events only) has no useful relative precision.
  double max_ci_half_width_ns = 32.0;
  /// Wall time of warm-up and sampling after which the measurement ends anyway, with a warning.
  double timeout_s = 5.0;
  /// > 0: take exactly this many counted samples; noise, confidence and min_time are ignored.
  std::size_t fixed_samples = 0;
  /// Hard cap on counted samples.
  std::size_t max_samples = 200'000;
};

/// What a progress callback sees after each round of samples.
struct MeasureProgress {
  const std::string* name = nullptr;
  std::size_t samples = 0;  ///< counted so far
  double elapsed_s = 0.0;
  double timeout_s = 0.0;
};

/// The code under measurement: enqueues its GPU work on the given stream and returns, without
/// waiting for the GPU (cold and hot samples hold the stream with a blocking kernel while it
/// runs; a launcher that synchronizes is detected by the blocking kernel's timeout).
using Launcher = std::function<void(cudaStream_t stream)>;

struct MeasureOptions {
  /// The measurement's name: the report entry's name and the CUPTI scope of its launches.
  std::string name = "measure";
  MeasureMode mode = MeasureMode::cold;
  /// CUDA device to measure on; -1: the calling thread's current device.
  int device = -1;
  /// Cold mode: overwrite an L2-sized buffer before each sample, outside the timed window.
  bool l2_flush = true;
  StoppingCriteria stopping;
  /// Samples taken and thrown away after the launcher's first (unblocked) call.
  std::size_t warmup_samples = 2;
  /// With warm-up samples, more are thrown away until the warm-up lasted this long: after a
  /// change of work (another kernel measured before, or an idle GPU) the first samples run
  /// slow by up to 3 % on an H200 (docs/benchmarks.md, "Order").
  double warmup_min_time_s = 0.01;
  /// Declared work per launcher call, for GB/s, TFLOP/s, items/s and % of peak bandwidth.
  Work work;
  /// Custom columns, copied into the Measurement; names unique and non-empty, values finite.
  std::vector<Counter> counters;
  /// When non-null and active, every sample also gets its CUPTI GPU span, which becomes the
  /// headline. The engine reads and then clears the tracer's records after each round, so
  /// give it a Tracer that nothing else reads while measuring.
  Tracer* tracer = nullptr;
  /// Cold mode without an active Tracer: the events-only headline adds back an empty kernel's
  /// own GPU time, which only CUPTI sees; the engine takes it from an earlier calibration with
  /// CUPTI (this process, or the cache file of docs/benchmarks.md). When none has it and this
  /// is true, the engine starts CUPTI for its calibration alone, once per device, if nothing
  /// else in the process may be using CUPTI (it never takes another tool's records); false
  /// keeps CUPTI out of the process (the runner's --no-cupti).
  bool borrow_cupti = true;
  /// How long the blocking kernel holds the stream before it gives up, marks the sample
  /// invalid and lets the stream run (a launcher that synchronizes would otherwise deadlock).
  double blocking_timeout_s = 1.0;
  /// Samples whose SM clock is under this share of the device's peak clock are flagged as
  /// throttled and left out of the statistics (NVBench: 0.75).
  double throttle_threshold = 0.75;
  /// Pause after a round with throttled samples, so the GPU can recover.
  double throttle_recovery_s = 0.05;
  /// Hot and graph modes: launcher calls per sample; 0 chooses it from the warm-up so that a
  /// sample lasts about batch_target_s (at most 64 calls in hot mode, 4096 in graph mode).
  std::size_t batch_size = 0;
  double batch_target_s = 250e-6;
  /// Enqueued on the engine's stream before every call of the launcher that is not inside a
  /// batch, ahead of the L2 flush and the blocking kernel, so it is never in the timed window:
  /// the reset of an input that the launcher overwrites (an in-place sort). Cold: before every
  /// sample's one call. Hot and graph: before every sample, once per batch (the calls of a
  /// batch see what the call before them left); graph mode calls it before each replay, it is
  /// not captured. Also before the launcher's first call and the warm-up samples. It runs while
  /// nothing holds the stream, so it may wait for the GPU (a blocking cudaMemcpy of fresh input);
  /// empty: none.
  Launcher setup;
  /// False: samples are queued without the blocking kernel and the clock check, so the engine
  /// launches no kernel of its own while measuring (for a profiler such as Nsight Compute).
  /// Event times then include the host's launch gaps, no SM clock is read (no throttle check),
  /// there is no calibration (no launch floor subtracted, no fixed cost added back, no CUPTI
  /// borrowed), and the events-only headline is the raw event time (timer "cuda-event").
  bool blocking_kernel = true;
  /// True: exactly one sample and no warm-up (batch of one in hot and graph modes, no
  /// calibration, so no CUPTI borrowed): for running under a profiler (NVBench's --run-once).
  /// With the blocking kernel the launcher's first call still runs before the sample, unblocked
  /// (module loading); without it the sample is the launcher's only call (with its setup).
  bool run_once = false;
  /// Called after each round (for a progress line); may be empty.
  std::function<void(const MeasureProgress&)> on_progress;
};

/// The benchmark engine. It keeps, per device, what every measurement reuses: a stream, event
/// pairs, the host-mapped control block of the blocking kernel, the L2 flush buffer and the
/// calibrated launch floor. Nothing is allocated or created inside a sample.
///
/// Not thread-safe: one thread measures at a time. Destroy it before CUDA shuts down (do not
/// keep one in a static variable).
class Engine {
 public:
  KERNTIME_API Engine();
  KERNTIME_API ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Measures `launcher` until a stopping rule is met. Throws kerntime::Error when CUDA fails
  /// or the options are invalid; a launcher's exception propagates after the engine's stream
  /// is drained.
  KERNTIME_API Measurement measure(const Launcher& launcher, const MeasureOptions& options = {});

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// One measurement with an Engine of its own (which calibrates and allocates once per call);
/// use an Engine for several.
KERNTIME_API Measurement measure(const Launcher& launcher, const MeasureOptions& options = {});

}  // namespace kerntime
