// SPDX-License-Identifier: Apache-2.0
#undef NDEBUG  // the device-side assert must stay in every build type
#include <cassert>
#include <cstdint>

#include "faulting_kernels.hpp"

namespace kerntime::testing {
namespace {

__device__ void spin(unsigned long long nanoseconds) {
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (;;) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start >= nanoseconds) break;
  }
}

__global__ void illegal_address_kernel(unsigned long long spin_ns, int* nowhere) {
  spin(spin_ns);
  nowhere[threadIdx.x] = 1;
}

__global__ void device_assert_kernel(unsigned long long spin_ns, int zero) {
  spin(spin_ns);
  assert(zero != 0);
}

__device__ int misaligned_target[4];

__global__ void misaligned_address_kernel(unsigned long long spin_ns) {
  spin(spin_ns);
  char* bytes = reinterpret_cast<char*>(misaligned_target);
  *reinterpret_cast<volatile int*>(bytes + 1) = 1;
}

__global__ void trap_kernel(unsigned long long spin_ns) {
  spin(spin_ns);
  asm volatile("trap;");
}

}  // namespace

void launch_faulting_kernel(Fault fault, cudaStream_t stream, unsigned long long spin_ns) {
  switch (fault) {
    case Fault::illegal_address:
      // Far above any allocation: the first page is unmapped on every platform.
      illegal_address_kernel<<<1, 32, 0, stream>>>(spin_ns,
                                                   reinterpret_cast<int*>(std::uintptr_t{0x10}));
      break;
    case Fault::device_assert:
      device_assert_kernel<<<1, 1, 0, stream>>>(spin_ns, 0);
      break;
    case Fault::trap:
      trap_kernel<<<1, 1, 0, stream>>>(spin_ns);
      break;
    case Fault::misaligned_address:
      misaligned_address_kernel<<<1, 1, 0, stream>>>(spin_ns);
      break;
  }
}

cudaError_t error_of(Fault fault) {
  switch (fault) {
    case Fault::illegal_address:
      return cudaErrorIllegalAddress;
    case Fault::device_assert:
      return cudaErrorAssert;
    case Fault::trap:
      return cudaErrorLaunchFailure;
    case Fault::misaligned_address:
      return cudaErrorMisalignedAddress;
  }
  return cudaErrorUnknown;
}

}  // namespace kerntime::testing
