// SPDX-License-Identifier: Apache-2.0
// Every CUDA runtime call in kerntime goes through check_cuda(), so that a failure becomes a
// kerntime::Error that names the call, the error and what to do.
#pragma once

#include <string>
#include <string_view>

#include <cuda_runtime_api.h>

namespace kerntime::cuda {

/// The message for a failed CUDA call: "<call> failed: <name> (<text>). <what to do>".
/// Errors that mean CUDA cannot start at all (no driver, driver too old, no device) are replaced
/// by the one-line diagnosis of query_gpu_status(), which names the cause and both versions.
std::string describe_cuda_error(cudaError_t error, std::string_view call, std::string_view hint);

/// What a user can do about `error` when the call site has nothing more specific to say.
std::string_view default_hint(cudaError_t error);

/// True for the errors that mean CUDA itself cannot start on this machine.
bool is_startup_error(cudaError_t error);

[[noreturn]] void throw_cuda_error(cudaError_t error, std::string_view call, std::string_view hint);

inline void check_cuda(cudaError_t error, std::string_view call, std::string_view hint = {}) {
  if (error != cudaSuccess) throw_cuda_error(error, call, hint);
}

}  // namespace kerntime::cuda
