// SPDX-License-Identifier: Apache-2.0
// Kernels of known GPU duration: the ground truth for timer accuracy tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace kerntime::samples {

/// Enqueues a kernel that busy-waits `nanoseconds` on the GPU's %globaltimer, the nanosecond
/// clock the device's own timestamps use, so its duration does not depend on SM clocks.
///
/// Launch: one block of one thread; it occupies one SM slot and moves no memory. The kernel
/// runs at least `nanoseconds`; on an H200 a CUPTI duration reads about 0.5 us more (the fixed
/// cost of any kernel) and a cudaEvent pair about 5 us more (the launch gap, docs/timing.md).
/// Throws kerntime::Error when the launch fails.
void launch_spin(std::uint64_t nanoseconds, cudaStream_t stream);

/// Enqueues an empty kernel (one block of one thread): what a launch costs when the kernel
/// does nothing, about 0.6 us of GPU time on an H200. Throws kerntime::Error when the launch
/// fails.
void launch_empty(cudaStream_t stream);

}  // namespace kerntime::samples
