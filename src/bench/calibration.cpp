// SPDX-License-Identifier: Apache-2.0
#include "bench/calibration.hpp"

#include <algorithm>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/tracer.hpp>

#include "bench/cuda_source.hpp"
#include "bench/engine_diagnostics.hpp"
#include "cuda/cuda_check.hpp"

namespace kerntime::bench {
namespace {
constexpr std::size_t kWarmup = 5;
// As a measurement's warm-up (MeasureOptions::warmup_min_time_s): the GPU settles first.
constexpr double kWarmupSeconds = 0.01;
constexpr std::size_t kSamples = 101;

}  // namespace

Calibration calibrate(DeviceResources& resources, Tracer* tracer) {
  const Launcher empty = [](cudaStream_t stream) {
    cuda::check_cuda(launch_floor_kernel(stream), "launching the floor kernel");
  };
  CudaSourceSettings settings;
  settings.mode = MeasureMode::cold;
  settings.l2_flush = false;
  settings.scope_name = "kerntime.calibration";
  settings.tracer = tracer;
  // The floor's samples run while the host only waits. An empty kernel's sample lasts about
  // 3 us, about as long as the host takes to queue the next one; queued while it runs (the
  // measurements' overlap), the host's writes to the GPU's queue delayed its stop event in some
  // processes, and the floor's median came out 100 to 300 ns high: 18 of 160 events-only
  // measurements of a 10 us kernel missed max(2 %, 0.25 us), none with a quiet host
  // (docs/benchmarks.md, "Events only"). KERNTIME_CALIBRATION_PIPELINE=overlap, a diagnostic
  // (bench/scripts/floor_after_tracer.py), queues them as before.
  settings.quiet_host = calibration_quiet_host_from_environment();
  std::vector<double> events;
  std::vector<double> spans;
  {
    CudaSampleSource source{resources, empty, settings};
    source.warm_up(kWarmup, kWarmupSeconds);
    for (const RawSample& s : source.take(kSamples)) {
      if (!s.valid) continue;
      events.push_back(s.event_ns);
      if (s.cupti_ns) spans.push_back(*s.cupti_ns);
    }
  }
  if (events.empty()) {
    throw Error(
        "calibrating the launch floor failed: every sample of an empty kernel timed out "
        "behind the blocking kernel; another process may hold the GPU");
  }
  Calibration c;
  c.floor_ns = median(events);
  if (2 * spans.size() > events.size()) c.fixed_cost_ns = median(spans);
  // The calibration's records must not land in the first round of a measurement's trace.
  if (tracer != nullptr && tracer->active()) {
    tracer->flush();
    tracer->clear();
  }
  return c;
}

}  // namespace kerntime::bench
