// SPDX-License-Identifier: Apache-2.0
#include <cstdint>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/spin.hpp"

namespace kerntime::samples {

__global__ void spin_kernel(std::uint64_t nanoseconds) {
  detail::spin_for_ns(nanoseconds);
}

// The planted slowdown of a kernel that does nothing is the fixed cost's share, tens of
// nanoseconds: counted in SM cycles, since %globaltimer steps by 32 ns.
__global__ void empty_kernel(long long planted_cycles) {
  if constexpr (detail::kSampleSlowdown != 1.0) detail::spin_for_cycles(planted_cycles);
}

// SM cycles of the empty kernel's planted delay at the device's peak clock (a lower clock makes
// the delay longer, never shorter); 0 without a planted slowdown.
static long long empty_planted_cycles() {
  if constexpr (detail::kSampleSlowdown == 1.0) {
    return 0;
  } else {
    int device = 0;
    int clock_khz = 0;
    detail::check_cuda(cudaGetDevice(&device), "empty", "cudaGetDevice");
    detail::check_cuda(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device), "empty",
                       "reading the SM clock rate");
    return static_cast<long long>(detail::kKernelFixedCostNs * (detail::kSampleSlowdown - 1.0) *
                                  clock_khz * 1e-6);
  }
}

// A build with KERNTIME_SPIN_SLOWDOWN=1.10 has a spin kernel 10 % slower than requested (and
// KERNTIME_SAMPLE_SLOWDOWN slows every sample kernel, see detail/planted_slowdown.cuh): the
// planted regressions that docs/ci.md uses to show the gate catches them. 1 everywhere else.
#ifndef KERNTIME_SPIN_SLOWDOWN
#define KERNTIME_SPIN_SLOWDOWN 1
#endif

void launch_spin(std::uint64_t nanoseconds, cudaStream_t stream) {
  if (KERNTIME_SPIN_SLOWDOWN != 1.0) {
    nanoseconds =
        static_cast<std::uint64_t>(static_cast<double>(nanoseconds) * KERNTIME_SPIN_SLOWDOWN);
  }
  // One thread: its planted delay needs no kernel-wide bookkeeping (detail/planted_slowdown.cuh).
  if constexpr (detail::kSampleSlowdown != 1.0)
    nanoseconds += detail::planted_extra_ns(nanoseconds);
  spin_kernel<<<1, 1, 0, stream>>>(nanoseconds);
  detail::check_launch("spin");
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>(empty_planted_cycles());
  detail::check_launch("empty");
}

}  // namespace kerntime::samples
