// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/environment.hpp>
#include <kerntime/export.hpp>

namespace kerntime {

/// Why no GPU work can run, in the order a user should check.
enum class GpuProblem {
  none,            ///< at least one device is usable
  no_driver,       ///< no NVIDIA driver is installed or loadable
  driver_too_old,  ///< the driver supports an older CUDA than kerntime's runtime
  no_device,       ///< the driver works but sees no device (CUDA_VISIBLE_DEVICES, containers)
  initialization_failed,  ///< anything else that stopped CUDA from starting
};

/// What the CUDA driver and runtime say about this machine. Never throws.
struct GpuStatus {
  int driver_version = 0;  ///< highest CUDA version the driver supports; 0 when no driver
  /// The kernel driver's release, e.g. "580.159.04" (CUDA only reports the CUDA version a
  /// driver supports); empty when unknown.
  std::string driver_release;
  int runtime_version = 0;  ///< CUDA runtime kerntime was built with
  int device_count = 0;
  GpuProblem problem = GpuProblem::none;
  std::string message;  ///< one line naming the cause and the fix; empty when problem is none

  bool usable() const { return problem == GpuProblem::none; }
};

/// Probes the driver and runtime. Cheap after the first call's CUDA initialization; never throws.
KERNTIME_API GpuStatus query_gpu_status();

/// Throws kerntime::Error with GpuStatus::message when no GPU can be used.
KERNTIME_API void require_gpu();

/// The exit status of every program kerntime ships (the `kerntime` command's GPU commands, the
/// benchmark runner, the examples) when no GPU can be used, after one line on standard error
/// naming the cause: 2, as for any input the program cannot work with (docs/ci.md, "Exit
/// status of kerntime's programs"). A program of your own can do the same: exit with it when
/// query_gpu_status() is not usable.
inline constexpr int kNoGpuExitStatus = 2;

/// Throws kerntime::Error unless `error` is cudaSuccess. The message names `call`, CUDA's
/// error and what to do ("cudaSetDevice(3) failed: cudaErrorInvalidDevice (invalid device
/// ordinal). The device index is not one of the visible devices; ..."), and when CUDA cannot
/// start at all it says why in plain words instead.
KERNTIME_API void check_cuda_call(cudaError_t error, std::string_view call);

/// Describes every visible device. Throws kerntime::Error when CUDA cannot be used.
KERNTIME_API std::vector<DeviceInfo> query_devices();

/// Describes one device. Throws kerntime::Error when the device cannot be queried.
KERNTIME_API DeviceInfo query_device(int device);

/// The environment section of a report for the given devices (all visible ones when empty).
/// Never throws: what cannot be known stays at its default.
KERNTIME_API Environment current_environment(const std::vector<int>& devices = {});

}  // namespace kerntime
