// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace kerntime::cuda {

/// The kernel driver's release, e.g. "580.159.04", read from /proc/driver/nvidia/version
/// (CUDA only reports the CUDA version a driver supports). Empty when unknown.
std::string nvidia_driver_release();

}  // namespace kerntime::cuda
