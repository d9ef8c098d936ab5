// SPDX-License-Identifier: Apache-2.0
// Independent measurements that bench_accuracy holds the engine against: CUPTI durations of
// plain launches, the naive single event pair, and large-copy bandwidth timed by events.
#pragma once

#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

namespace kerntime::examples {

/// Median CUPTI duration of the kernels whose name contains `kernel`, over `count` plain calls
/// of `launcher` on `stream`, each waited for (no blocking kernel, no flush, no engine).
double cupti_plain_median_ns(Tracer& tracer, const Launcher& launcher, const std::string& kernel,
                             int count, cudaStream_t stream);

/// Median of a cudaEvent pair around one call of `launcher` (a kerntime::ScopedTimer), each
/// waited for: what a plain event pair reads, launch gap included.
double event_pair_median_ns(const Launcher& launcher, int count, cudaStream_t stream);

/// The first line of /proc/driver/nvidia/version's driver release ("580.159.04"), or "unknown".
std::string driver_release();

}  // namespace kerntime::examples
