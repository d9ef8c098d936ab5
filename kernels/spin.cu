// SPDX-License-Identifier: Apache-2.0
#include <cstdint>

#include "kernels/detail/launch.hpp"
#include "kernels/spin.hpp"

namespace kerntime::samples {

// %globaltimer, not clock64(): SM cycles change with clocks and throttling, while the spin
// must last a fixed wall time. volatile keeps the compiler from hoisting the read out of the loop.
static __device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void spin_kernel(std::uint64_t nanoseconds) {
  const std::uint64_t start = global_timer_ns();
  while (global_timer_ns() - start < nanoseconds) {
  }
}

__global__ void empty_kernel() {}

// A build with KERNTIME_SPIN_SLOWDOWN=1.10 has a spin kernel 10 % slower than requested: the
// planted regression that docs/ci.md uses to show the gate catches it. 1 everywhere else.
#ifndef KERNTIME_SPIN_SLOWDOWN
#define KERNTIME_SPIN_SLOWDOWN 1
#endif

void launch_spin(std::uint64_t nanoseconds, cudaStream_t stream) {
  const double slowdown = KERNTIME_SPIN_SLOWDOWN;
  if (slowdown != 1.0) {
    nanoseconds = static_cast<std::uint64_t>(static_cast<double>(nanoseconds) * slowdown);
  }
  spin_kernel<<<1, 1, 0, stream>>>(nanoseconds);
  detail::check_launch("spin");
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  detail::check_launch("empty");
}

}  // namespace kerntime::samples
