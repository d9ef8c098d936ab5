// SPDX-License-Identifier: Apache-2.0
#include "bench/engine_kernels.hpp"

namespace kerntime::bench {

// %globaltimer ticks in nanoseconds on the clock the GPU's own timestamps use; clock64() counts
// this multiprocessor's cycles. Their ratio over one window is the SM clock in that window.
static __device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

static __device__ __forceinline__ std::uint32_t sm_id() {
  std::uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__global__ void blocking_kernel(HostControl* control, StartReading* starts, std::uint64_t seq,
                                std::uint64_t min_ns, std::uint64_t timeout_ns) {
  const unsigned slot = static_cast<unsigned>(seq % kSlots);
  const std::uint64_t begin = global_ns();
  starts[slot] = StartReading{seq, sm_id(), begin, static_cast<std::uint64_t>(clock64())};
  // volatile: every iteration must read the host's store through the mapping, not a register.
  const volatile std::uint64_t* release = &control->release;
  for (;;) {
    const std::uint64_t waited = global_ns() - begin;
    if (*release >= seq && waited >= min_ns) break;
    if (waited > timeout_ns) {
      control->reports[slot].timed_out_seq = seq;
      break;
    }
  }
}

__global__ void clock_check_kernel(HostControl* control, const StartReading* starts,
                                   std::uint64_t seq) {
  const unsigned slot = static_cast<unsigned>(seq % kSlots);
  const StartReading start = starts[slot];
  if (threadIdx.x != 0 || start.seq != seq || sm_id() != start.smid) return;
  const std::uint64_t cycles = static_cast<std::uint64_t>(clock64());
  const std::uint64_t now = global_ns();
  // Several blocks may land on that multiprocessor; their readings differ by nanoseconds, so
  // whichever store wins describes the window.
  SlotReport& report = control->reports[slot];
  report.cycles = cycles - start.cycles;
  report.ns = now - start.global_ns;
  __threadfence_system();
  report.clock_seq = seq;
}

__global__ void floor_kernel() {}

cudaError_t launch_blocking_kernel(HostControl* control, StartReading* starts, std::uint64_t seq,
                                   std::uint64_t min_ns, std::uint64_t timeout_ns,
                                   cudaStream_t stream) {
  blocking_kernel<<<1, 1, 0, stream>>>(control, starts, seq, min_ns, timeout_ns);
  return cudaGetLastError();
}

cudaError_t launch_clock_check(HostControl* control, const StartReading* starts, std::uint64_t seq,
                               unsigned blocks, cudaStream_t stream) {
  clock_check_kernel<<<blocks, 32, 0, stream>>>(control, starts, seq);
  return cudaGetLastError();
}

cudaError_t launch_floor_kernel(cudaStream_t stream) {
  floor_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

namespace {

__global__ void flush_kernel(uint4* buffer, std::size_t words, unsigned value) {
  const uint4 word = make_uint4(value, value, value, value);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    buffer[i] = word;
  }
}

// Loads every word. The store only keeps the loads from being optimized away: it happens when
// a thread's XOR of its words hits one arbitrary value, and the buffer's content is of no use.
__global__ void flush_read_kernel(uint4* buffer, std::size_t words) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 w = buffer[i];
    acc.x ^= w.x;
    acc.y ^= w.y;
    acc.z ^= w.z;
    acc.w ^= w.w;
  }
  if (acc.x == 0x9e3779b9u && acc.y == 0x7f4a7c15u && words > 0) buffer[0] = acc;
}

}  // namespace

cudaError_t launch_flush_read_kernel(void* buffer, std::size_t bytes, cudaStream_t stream) {
  flush_read_kernel<<<1024, 256, 0, stream>>>(static_cast<uint4*>(buffer), bytes / sizeof(uint4));
  return cudaGetLastError();
}

cudaError_t launch_flush_kernel(void* buffer, std::size_t bytes, std::uint8_t value,
                                cudaStream_t stream) {
  const unsigned byte = value;
  const unsigned word = byte | (byte << 8) | (byte << 16) | (byte << 24);
  flush_kernel<<<1024, 256, 0, stream>>>(static_cast<uint4*>(buffer), bytes / sizeof(uint4), word);
  return cudaGetLastError();
}

}  // namespace kerntime::bench
