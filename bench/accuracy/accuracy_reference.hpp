// SPDX-License-Identifier: Apache-2.0
// Independent measurements that bench_accuracy holds the engine against: CUPTI durations of
// plain launches (kerntime's Tracer in this process, and the reference reader in a child), the
// naive single event pair, and large-copy bandwidth timed by events.
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

/// One kind of plain launch the reader's child makes, `count` times after one untimed launch,
/// each waited for: a spin of `spin_ns`, or (spin_ns 0) a device copy of `copy_bytes` behind an
/// L2-sized memset, the engine's cold flush.
struct ReaderWork {
  std::uint64_t spin_ns = 0;
  std::uint64_t copy_bytes = 0;
  int count = 0;
};

/// What a reader that is not kerntime sees: the median kernel duration of each of `work`, read
/// by the reference reader (tests/support/reference_reader, a minimal CUPTI kernel reader
/// injected with CUDA_INJECTION64_PATH) in a child process of this program (run_reader_child)
/// that has no kerntime Tracer. Empty when the reader was not built (KERNTIME_BUILD_TESTS off);
/// throws kerntime::Error when the child or its records fail.
std::vector<double> reader_medians_ns(const std::vector<ReaderWork>& work);

/// The child of reader_medians_ns(): `arguments` is "sNS:COUNT" (a spin) or "cBYTES:COUNT" (a
/// copy), comma-separated.
int run_reader_child(const std::string& arguments);

/// Median of a cudaEvent pair around one call of `launcher` (a kerntime::ScopedTimer), each
/// waited for: what a plain event pair reads, launch gap included.
double event_pair_median_ns(const Launcher& launcher, int count, cudaStream_t stream);

/// The first line of /proc/driver/nvidia/version's driver release ("580.159.04"), or "unknown".
std::string driver_release();

}  // namespace kerntime::examples
