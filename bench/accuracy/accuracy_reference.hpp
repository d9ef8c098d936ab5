// SPDX-License-Identifier: Apache-2.0
// Independent measurements that bench_accuracy holds the engine against: CUPTI durations of
// plain launches, the naive single event pair, and large-copy bandwidth timed by events.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

namespace kerntime::examples {

/// Median CUPTI duration of the kernels whose name contains `kernel`, over `count` plain calls
/// of `launcher` on `stream`, each waited for (no blocking kernel, no flush, no engine).
double cupti_plain_median_ns(Tracer& tracer, const Launcher& launcher, const std::string& kernel,
                             int count, cudaStream_t stream);

/// What a reader that is not kerntime sees: median durations of plain launches of each spin of
/// `lengths` (`counts[i]` launches each, each waited for), read by the reference reader
/// (tests/support/reference_reader, a minimal CUPTI kernel reader injected with
/// CUDA_INJECTION64_PATH) in a child process of this program (run_reader_child) that has no
/// kerntime Tracer. Empty when the reader was not built (KERNTIME_BUILD_TESTS off); throws
/// kerntime::Error when the child or its records fail.
std::vector<double> reader_spin_medians_ns(const std::vector<std::uint64_t>& lengths,
                                           const std::vector<int>& counts);

/// The child of reader_spin_medians_ns(): `arguments` is "ns:count,ns:count,...".
int run_reader_child(const std::string& arguments);

/// Median of a cudaEvent pair around one call of `launcher` (a kerntime::ScopedTimer), each
/// waited for: what a plain event pair reads, launch gap included.
double event_pair_median_ns(const Launcher& launcher, int count, cudaStream_t stream);

/// The first line of /proc/driver/nvidia/version's driver release ("580.159.04"), or "unknown".
std::string driver_release();

}  // namespace kerntime::examples
