// SPDX-License-Identifier: Apache-2.0
// The planted regression of the regression-gate demonstration (docs/ci.md): a build with
// KERNTIME_SAMPLE_SLOWDOWN=1.10 makes every sample kernel about 10 % slower, the memory-bound
// ones included, so the gate can be shown catching slowdowns of every kind. 1 everywhere else,
// where the code below compiles to nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef KERNTIME_SAMPLE_SLOWDOWN
#define KERNTIME_SAMPLE_SLOWDOWN 1
#endif

namespace kerntime::samples::detail {

inline constexpr double kSampleSlowdown = KERNTIME_SAMPLE_SLOWDOWN;

// %globaltimer, not clock64(): SM cycles change with clocks and throttling, while a delay must
// last a fixed wall time. volatile keeps the compiler from hoisting the read out of a loop.
__device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__device__ __forceinline__ void spin_for_ns(std::uint64_t nanoseconds) {
  const std::uint64_t start = global_timer_ns();
  while (global_timer_ns() - start < nanoseconds) {
  }
}

/// Put one at the top of a kernel: when the build plants a slowdown, the block's first thread
/// stays (factor - 1) times as long again as it worked, so the block holds its SM that much
/// longer. One thread spinning keeps the block resident without taking the memory system from
/// the blocks still working, which is how a real slowdown of a memory-bound kernel looks.
class PlantedSlowdown {
 public:
  __device__ PlantedSlowdown() {
    if constexpr (kSampleSlowdown != 1.0) start_ = global_timer_ns();
  }
  __device__ ~PlantedSlowdown() {
    if constexpr (kSampleSlowdown != 1.0) {
      if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        const double worked = static_cast<double>(global_timer_ns() - start_);
        spin_for_ns(static_cast<std::uint64_t>(worked * (kSampleSlowdown - 1.0)));
      }
    }
  }
  PlantedSlowdown(const PlantedSlowdown&) = delete;
  PlantedSlowdown& operator=(const PlantedSlowdown&) = delete;

 private:
  std::uint64_t start_ = 0;
};

/// Extra work of a kernel whose work is `work` units: (factor - 1) times as much, 0 normally.
__device__ __forceinline__ std::size_t planted_extra(std::size_t work) {
  if constexpr (kSampleSlowdown == 1.0) {
    return 0;
  } else {
    return static_cast<std::size_t>(static_cast<double>(work) * (kSampleSlowdown - 1.0) + 0.5);
  }
}

/// 0.0f that the compiler cannot see through, so that extra work multiplied by it stays work.
__device__ __forceinline__ float opaque_zero() {
  float zero;
  asm volatile("mov.f32 %0, 0f00000000;" : "=f"(zero));
  return zero;
}

/// The memory traffic of a memory-bound kernel grows with the planted factor: the grid reads
/// (factor - 1) times the kernel's own traffic (`accesses` reads and writes of each of the
/// `bytes` of `data`) again, from the end of `data` backwards. A block delay alone barely slows
/// a kernel of many waves; re-reading what a block has just read hits the L2 cache, while the
/// far end of a buffer larger than L2 comes from device memory, as a real regression's extra
/// traffic would.
__device__ __forceinline__ void planted_reads(const void* data, std::size_t bytes,
                                              double accesses) {
  if constexpr (kSampleSlowdown != 1.0) {
    const std::size_t words = bytes / sizeof(uint4);
    if (words == 0) return;
    const std::size_t count =
        planted_extra(static_cast<std::size_t>(static_cast<double>(words) * accesses));
    const std::size_t threads_per_block = std::size_t{blockDim.x} * blockDim.y * blockDim.z;
    const std::size_t threads = threads_per_block * gridDim.x * gridDim.y * gridDim.z;
    const std::size_t block =
        blockIdx.x + std::size_t{gridDim.x} * (blockIdx.y + std::size_t{gridDim.y} * blockIdx.z);
    const std::size_t thread =
        threadIdx.x +
        std::size_t{blockDim.x} * (threadIdx.y + std::size_t{blockDim.y} * threadIdx.z);
    const uint4* base = static_cast<const uint4*>(data);
    unsigned int sink = 0;
    for (std::size_t i = block * threads_per_block + thread; i < count; i += threads) {
      // A load the compiler may not drop or merge with the kernel's own.
      unsigned int x, y, z, w;
      asm volatile("ld.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                   : "l"(base + (words - 1 - i % words)));
      sink ^= x ^ y ^ z ^ w;
    }
    asm volatile("" ::"r"(sink));  // the loads must happen
  } else {
    (void)data;
    (void)bytes;
    (void)accesses;
  }
}

/// An empty kernel does no work to stretch; it takes about 0.58 us on an H200 (CUPTI), so the
/// planted slowdown adds that fraction of it.
inline constexpr double kEmptyKernelNs = 576.0;

}  // namespace kerntime::samples::detail
