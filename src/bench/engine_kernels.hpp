// SPDX-License-Identifier: Apache-2.0
// The engine's own device code, behind plain C++ launchers: the blocking kernel that holds the
// stream while a sample is queued, the clock check that reads the SM clock against
// %globaltimer, an empty kernel for the launch-floor calibration, and the L2 flush as a kernel
// (a diagnostic beside the driver's memset).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace kerntime::bench {

/// Samples in flight at most, and so the number of control slots: sample `seq` uses slot
/// seq % kSlots.
inline constexpr unsigned kSlots = 4;

/// Where the blocking kernel started: written to device memory, read by the clock check.
struct StartReading {
  std::uint64_t seq;
  std::uint64_t smid;
  std::uint64_t global_ns;
  std::uint64_t cycles;
};

/// What the device reports back about one sample, in host-mapped memory.
struct SlotReport {
  std::uint64_t timed_out_seq;  ///< == seq: the blocking kernel gave up
  std::uint64_t clock_seq;      ///< == seq: cycles and ns below belong to this sample
  std::uint64_t cycles;         ///< SM cycles from the blocking kernel's start to the check
  std::uint64_t ns;             ///< %globaltimer nanoseconds over the same window
};

/// The host-mapped control block. The host releases sample `seq` by storing seq in `release`;
/// the blocking kernel of sample seq waits until release >= seq.
struct HostControl {
  std::uint64_t release;
  std::uint64_t padding[7];  // keeps the flag the GPU polls on its own cache line
  SlotReport reports[kSlots];
};

/// Enqueues the blocking kernel of sample `seq`: records where and when it starts, then spins
/// until the host releases `seq` and at least `min_ns` passed, or until `timeout_ns` passes
/// (then it marks the sample timed out). `min_ns` gives the clock check a window long enough
/// to read the SM clock from, even when the host released the sample before it started.
cudaError_t launch_blocking_kernel(HostControl* control, StartReading* starts, std::uint64_t seq,
                                   std::uint64_t min_ns, std::uint64_t timeout_ns,
                                   cudaStream_t stream);

/// Enqueues the clock check of sample `seq`: `blocks` one-warp blocks; the first to run on the
/// multiprocessor of the blocking kernel reports cycles and ns since that kernel started.
cudaError_t launch_clock_check(HostControl* control, const StartReading* starts, std::uint64_t seq,
                               unsigned blocks, cudaStream_t stream);

/// Enqueues an empty kernel: the floor any launch costs between two events.
cudaError_t launch_floor_kernel(cudaStream_t stream);

/// Enqueues a kernel that writes `value` to every byte of `buffer` (`bytes`, a multiple of 16):
/// the L2 flush as a kernel's stores instead of the driver's memset
/// (KERNTIME_L2_FLUSH=kernel, a diagnostic: docs/order-history.md).
cudaError_t launch_flush_kernel(void* buffer, std::size_t bytes, std::uint8_t value,
                                cudaStream_t stream);

/// Enqueues a kernel that loads every word of `buffer` and stores nothing: the L2 flush that
/// leaves the cache holding clean lines, where a memset's leaves dirty ones that the timed work
/// must write back as it evicts them (KERNTIME_L2_FLUSH=read, a diagnostic).
cudaError_t launch_flush_read_kernel(void* buffer, std::size_t bytes, cudaStream_t stream);

}  // namespace kerntime::bench
