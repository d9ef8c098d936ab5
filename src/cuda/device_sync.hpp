// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace kerntime::cuda {

/// Waits for all work on every device whose primary context is active, and on the calling
/// thread's current context, without creating a context anywhere or changing the current
/// device. Returns an empty string on success, else what failed, in plain words. Driver
/// functions are looked up in the already loaded libcuda: when CUDA was never started in this
/// process there is nothing to wait for.
std::string synchronize_active_devices();

}  // namespace kerntime::cuda
