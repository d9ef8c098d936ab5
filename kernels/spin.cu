// SPDX-License-Identifier: Apache-2.0
#include <cstdint>

#include "kernels/detail/launch.hpp"
#include "kernels/detail/planted_slowdown.cuh"
#include "kernels/spin.hpp"

namespace kerntime::samples {

__global__ void spin_kernel(std::uint64_t nanoseconds) {
  detail::spin_for_ns(nanoseconds);
}

__global__ void empty_kernel() {
  if constexpr (detail::kSampleSlowdown != 1.0) {
    detail::spin_for_ns(
        static_cast<std::uint64_t>(detail::kEmptyKernelNs * (detail::kSampleSlowdown - 1.0)));
  }
}

// A build with KERNTIME_SPIN_SLOWDOWN=1.10 has a spin kernel 10 % slower than requested (and
// KERNTIME_SAMPLE_SLOWDOWN slows every sample kernel, see detail/planted_slowdown.cuh): the
// planted regressions that docs/ci.md uses to show the gate catches them. 1 everywhere else.
#ifndef KERNTIME_SPIN_SLOWDOWN
#define KERNTIME_SPIN_SLOWDOWN 1
#endif

void launch_spin(std::uint64_t nanoseconds, cudaStream_t stream) {
  const double slowdown = KERNTIME_SPIN_SLOWDOWN * detail::kSampleSlowdown;
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
