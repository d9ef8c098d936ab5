// SPDX-License-Identifier: Apache-2.0
#include "cuda/gpu_status.hpp"

#include <cstdlib>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>

#include "cuda/driver_release.hpp"

namespace kerntime {

GpuStatus diagnose_gpu_status(int driver_version, int runtime_version, int device_count,
                              const std::string& init_error_name,
                              const std::string& init_error_text) {
  GpuStatus status;
  status.driver_version = driver_version;
  status.runtime_version = runtime_version;
  status.device_count = device_count;
  const std::string runtime = cuda_version_string(runtime_version);
  const std::string driver = cuda_version_string(driver_version);

  // cudaDriverGetVersion() reports 0 when no driver is installed, while every other call says
  // "driver version is insufficient", which would send the user looking for an update.
  if (driver_version == 0) {
    status.problem = GpuProblem::no_driver;
    status.message =
        "no NVIDIA driver found: CUDA cannot start on this machine (kerntime uses "
        "CUDA runtime " +
        runtime +
        "). Install the NVIDIA driver, or run on a "
        "machine or container with GPU access.";
    return status;
  }
  // A newer runtime runs on an older driver of the same major version (minor-version
  // compatibility), so a lower number alone is not a problem; CUDA's refusal is.
  if (init_error_name == "cudaErrorInsufficientDriver" ||
      (driver_version / 1000 < runtime_version / 1000 && !init_error_name.empty())) {
    status.problem = GpuProblem::driver_too_old;
    status.message = "the NVIDIA driver is too old: it supports CUDA up to " + driver +
                     ", but kerntime uses CUDA runtime " + runtime +
                     ". Update the driver to one that supports CUDA " + runtime +
                     ", or build kerntime with a CUDA Toolkit no newer than " + driver + ".";
    return status;
  }
  if (init_error_name == "cudaErrorNoDevice" || (init_error_name.empty() && device_count == 0)) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    status.problem = GpuProblem::no_device;
    status.message = "no CUDA device is visible: the NVIDIA driver (CUDA " + driver +
                     ") is installed but reports no GPU. ";
    if (visible != nullptr) {
      status.message += "CUDA_VISIBLE_DEVICES is set to \"" + std::string{visible} +
                        "\"; unset it or name an existing device.";
    } else {
      status.message +=
          "Check that the GPU is present (nvidia-smi) and, in a container, that "
          "it was started with GPU access.";
    }
    return status;
  }
  if (!init_error_name.empty()) {
    status.problem = GpuProblem::initialization_failed;
    status.message = "CUDA could not start: " + init_error_name + " (" + init_error_text +
                     ") with driver CUDA " + driver + " and runtime " + runtime +
                     ". Check nvidia-smi; a reboot or driver reinstall fixes a driver/library "
                     "mismatch.";
    return status;
  }
  return status;
}

GpuStatus query_gpu_status() {
  int driver = 0;
  int runtime = 0;
  // Both work without a driver: the runtime reports 0 for a missing one.
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  std::string name;
  std::string text;
  if (error != cudaSuccess) {
    count = 0;
    name = cudaGetErrorName(error);
    text = cudaGetErrorString(error);
    // The error stays as the runtime's last error otherwise and would surface in user code.
    (void)cudaGetLastError();
  }
  GpuStatus status = diagnose_gpu_status(driver, runtime, count, name, text);
  status.driver_release = cuda::nvidia_driver_release();
  return status;
}

void require_gpu() {
  const GpuStatus status = query_gpu_status();
  if (!status.usable()) throw Error(status.message);
}

}  // namespace kerntime
