// SPDX-License-Identifier: Apache-2.0
// Kernels that fault on purpose, one of each kind CUDA reports, for the fault tests. Each leaves
// the CUDA context unusable, so every test that launches one runs in its own process.
#pragma once

#include <cuda_runtime_api.h>

namespace kerntime::testing {

enum class Fault {
  illegal_address,     ///< a store to an unmapped address: cudaErrorIllegalAddress
  device_assert,       ///< assert(false) in device code: cudaErrorAssert
  trap,                ///< the trap instruction: cudaErrorLaunchFailure
  misaligned_address,  ///< a 4-byte store to an odd address: cudaErrorMisalignedAddress
};

/// Enqueues a kernel that spins `spin_ns` on the GPU and then faults.
void launch_faulting_kernel(Fault fault, cudaStream_t stream, unsigned long long spin_ns = 20'000);

/// The CUDA error `fault` reports.
cudaError_t error_of(Fault fault);

}  // namespace kerntime::testing
