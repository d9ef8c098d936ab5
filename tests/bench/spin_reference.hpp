// SPDX-License-Identifier: Apache-2.0
// The ground truth for the engine's GPU tests: a spin kernel's CUPTI duration, measured apart
// from the engine (plain launches, one at a time) in the same process.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"

namespace kerntime::testing {

/// Median CUPTI duration of `count` launches of launch_spin(ns), each waited for.
inline double cupti_spin_reference_ns(Tracer& tracer, std::uint64_t ns, int count) {
  tracer.flush();
  tracer.clear();
  for (int i = 0; i < count; ++i) {
    samples::launch_spin(ns, nullptr);
    cudaStreamSynchronize(nullptr);
  }
  tracer.flush();
  std::vector<double> durations;
  for (const KernelActivity& k : tracer.trace().kernels) {
    if (k.name.find("spin_kernel") != std::string_view::npos) {
      durations.push_back(static_cast<double>(k.duration_ns()));
    }
  }
  tracer.clear();
  if (durations.empty()) return 0.0;
  std::sort(durations.begin(), durations.end());
  return durations[durations.size() / 2];
}

/// max(share x reference, floor_ns): the accuracy targets of docs/benchmarks.md.
inline double tolerance_ns(double reference, double share, double floor_ns) {
  return std::max(share * reference, floor_ns);
}

}  // namespace kerntime::testing
