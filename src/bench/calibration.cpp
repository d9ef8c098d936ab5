// SPDX-License-Identifier: Apache-2.0
#include "bench/calibration.hpp"

#include <algorithm>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>

#include "bench/cuda_source.hpp"
#include "cuda/cuda_check.hpp"

namespace kerntime::bench {
namespace {
constexpr std::size_t kWarmup = 5;
constexpr std::size_t kSamples = 101;
}  // namespace

double calibrate_floor(DeviceResources& resources) {
  const Launcher empty = [](cudaStream_t stream) {
    detail::check_cuda(launch_floor_kernel(stream), "launching the floor kernel");
  };
  CudaSourceSettings settings;
  settings.mode = MeasureMode::cold;
  settings.l2_flush = false;
  settings.scope_name = "kerntime.calibration";
  CudaSampleSource source{resources, empty, settings};
  source.warm_up(kWarmup);
  std::vector<double> times;
  for (const RawSample& s : source.take(kSamples)) {
    if (s.valid) times.push_back(s.event_ns);
  }
  if (times.empty()) {
    throw Error(
        "calibrating the launch floor failed: every sample of an empty kernel timed out "
        "behind the blocking kernel; another process may hold the GPU");
  }
  std::sort(times.begin(), times.end());
  return quantile_sorted(times, 0.5);
}

}  // namespace kerntime::bench
