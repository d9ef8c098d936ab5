// SPDX-License-Identifier: Apache-2.0
// The planted regression of the regression-gate demonstration (docs/ci.md): a build with
// KERNTIME_SAMPLE_SLOWDOWN=1.10 makes every sample kernel about 10 % slower in GPU time, the
// memory-bound ones of many waves and the empty kernel included, so the gate can be shown catching
// a slowdown of every kind. 1 everywhere else, where the code below compiles to nothing.
#pragma once

#include <cstdint>

#ifndef KERNTIME_SAMPLE_SLOWDOWN
#define KERNTIME_SAMPLE_SLOWDOWN 1
#endif

namespace kerntime::samples::detail {

inline constexpr double kSampleSlowdown = KERNTIME_SAMPLE_SLOWDOWN;

/// What any kernel costs besides its blocks' work, as CUPTI measures it on an H200: the empty
/// kernel's 0.54 - 0.58 us. A kernel's GPU time is this plus the span of its blocks, so the
/// planted delay stretches both to slow every kernel by the same factor.
inline constexpr double kKernelFixedCostNs = 576.0;

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

/// Busy-waits `cycles` SM clock cycles. For delays of tens of nanoseconds, which %globaltimer
/// (32 ns steps) cannot time.
__device__ __forceinline__ void spin_for_cycles(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

/// Blocks finished in the current launch, counted in kShards counters on separate cache lines
/// (thousands of atomics on one address queue up for microseconds). One set per kernel module (a
/// static __device__ variable per .cu file, zero at load), so launches of one sample kernel must
/// not overlap: true of every benchmark here, which launches on one stream.
struct PlantedBlockCount {
  static constexpr unsigned int kShards = 32;
  static constexpr unsigned int kLine = 32;  // unsigned ints per 128-byte cache line
  unsigned int finished[kShards * kLine];
};
static __device__ PlantedBlockCount planted_block_count;

static __device__ unsigned int& planted_shard(unsigned int block) {
  return planted_block_count
      .finished[block % PlantedBlockCount::kShards * PlantedBlockCount::kLine];
}

static __device__ unsigned int& planted_threads_done() {
  __shared__ unsigned int count;
  return count;
}

static __device__ unsigned int planted_block_index() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

static __device__ unsigned int planted_thread_index() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Out of line, as is planted_end: inlined, they change how the kernel around them is compiled,
// which made a planted sgemm faster by a few percent and hid part of the delay.
static __device__ __noinline__ std::uint64_t planted_begin() {
  std::uint64_t start_ns = 0;
  if (planted_thread_index() == 0) {
    planted_threads_done() = 0;
    start_ns = global_timer_ns();
  }
  __syncthreads();  // the counter is zero before any thread of the block can finish
  return start_ns;
}

static __device__ __noinline__ void planted_end(std::uint64_t start_ns) {
  const unsigned int block_threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned int block = planted_block_index();
  // One shared atomic per group of converged lanes, not per thread.
  const unsigned int lanes = __activemask();
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == static_cast<unsigned int>(__ffs(lanes) - 1)) {
    const unsigned int count = static_cast<unsigned int>(__popc(lanes));
    if (atomicAdd(&planted_threads_done(), count) + count == block_threads && block != 0) {
      atomicAdd(&planted_shard(block), 1u);  // result unused: compiled to a reduction
    }
  }
  if (block != 0 || planted_thread_index() != 0) return;

  // Thread 0 of block 0: wait for the rest of its block, then for every other block.
  while (*static_cast<volatile unsigned int*>(&planted_threads_done()) != block_threads) {
  }
  const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
  if (blocks > 1) {
    for (;;) {
      unsigned int finished = 0;
      for (unsigned int i = 0; i < PlantedBlockCount::kShards; ++i) {
        finished += *static_cast<volatile unsigned int*>(&planted_shard(i));
      }
      if (finished == blocks - 1) break;
    }
    for (unsigned int i = 0; i < PlantedBlockCount::kShards; ++i) {
      *static_cast<volatile unsigned int*>(&planted_shard(i)) = 0;  // ready for the next launch
    }
  }
  const double gpu_time = static_cast<double>(global_timer_ns() - start_ns) + kKernelFixedCostNs;
  spin_for_ns(static_cast<std::uint64_t>(gpu_time * (kSampleSlowdown - 1.0)));
}

/// Put one at the top of a kernel of many threads, before any thread can return. When the build
/// plants a slowdown, thread 0 of block 0 (the first to start) waits, after its own work, until
/// every other block has finished, and then stays (factor - 1) times the kernel's GPU time (its
/// span plus the fixed cost) longer, so the kernel's duration grows by the factor whatever bounds
/// it: a delay per block barely slows a memory-bound kernel of many waves, whose other blocks keep
/// the memory busy, and extra traffic slows a kernel by an amount that depends on its size and the
/// caches. Nothing on a block's way out waits for memory: its last group of lanes posts a
/// reduction and leaves, and only the waiting thread reads the counters.
///
/// Finding the last block costs about a microsecond of round trips to memory (the benchmarks'
/// cold mode flushes the counters out of the L2 cache), so kernels of a few microseconds slow by
/// more than the factor; docs/ci.md has the figures.
class PlantedSlowdown {
 public:
  __device__ PlantedSlowdown() {
    if constexpr (kSampleSlowdown != 1.0) start_ns_ = planted_begin();
  }
  __device__ ~PlantedSlowdown() {
    if constexpr (kSampleSlowdown != 1.0) planted_end(start_ns_);
  }
  PlantedSlowdown(const PlantedSlowdown&) = delete;
  PlantedSlowdown& operator=(const PlantedSlowdown&) = delete;

 private:
  std::uint64_t start_ns_ = 0;
};

/// The planted delay of a kernel of one thread that runs `work_ns`, computed on the host: the
/// factor's share of the work and the fixed cost.
inline std::uint64_t planted_extra_ns(std::uint64_t work_ns) {
  return static_cast<std::uint64_t>((static_cast<double>(work_ns) + kKernelFixedCostNs) *
                                    (kSampleSlowdown - 1.0));
}

}  // namespace kerntime::samples::detail
