// SPDX-License-Identifier: Apache-2.0
#include "cuda/device_sync.hpp"

#include <dlfcn.h>

#include <cuda.h>

namespace kerntime::cuda {
namespace {

// Entry points of the driver library, resolved from the copy the CUDA runtime already loaded
// (RTLD_NOLOAD): kerntime never links libcuda, so it starts on machines without a driver.
struct Driver {
  decltype(&cuDeviceGetCount) device_count = nullptr;
  decltype(&cuDeviceGet) device_get = nullptr;
  decltype(&cuDevicePrimaryCtxGetState) primary_state = nullptr;
  decltype(&cuDevicePrimaryCtxRetain) primary_retain = nullptr;
  decltype(&cuDevicePrimaryCtxRelease) primary_release = nullptr;
  decltype(&cuCtxGetCurrent) current = nullptr;
  decltype(&cuCtxPushCurrent) push = nullptr;
  decltype(&cuCtxPopCurrent) pop = nullptr;
  decltype(&cuCtxSynchronize) synchronize = nullptr;
  decltype(&cuGetErrorString) error_string = nullptr;

  bool load() {
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (handle == nullptr) return false;
    bool ok = true;
    auto get = [&](auto& function, const char* name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, name));
      ok = ok && function != nullptr;
    };
    get(device_count, "cuDeviceGetCount");
    get(device_get, "cuDeviceGet");
    get(primary_state, "cuDevicePrimaryCtxGetState");
    get(primary_retain, "cuDevicePrimaryCtxRetain");
    get(primary_release, "cuDevicePrimaryCtxRelease_v2");
    get(current, "cuCtxGetCurrent");
    get(push, "cuCtxPushCurrent_v2");
    get(pop, "cuCtxPopCurrent_v2");
    get(synchronize, "cuCtxSynchronize");
    get(error_string, "cuGetErrorString");
    // The handle stays open: the runtime holds libcuda for the life of the process anyway.
    return ok;
  }

  std::string describe(CUresult result, const std::string& what) const {
    const char* text = nullptr;
    if (error_string(result, &text) != CUDA_SUCCESS || text == nullptr) text = "unknown error";
    return what + " failed: " + text;
  }
};

}  // namespace

std::string synchronize_active_devices() {
  Driver driver;
  if (!driver.load()) return {};
  std::string failures;
  auto note = [&](std::string message) { failures += failures.empty() ? message : "; " + message; };

  CUcontext current = nullptr;
  if (driver.current(&current) == CUDA_SUCCESS && current != nullptr) {
    if (CUresult r = driver.synchronize(); r != CUDA_SUCCESS) {
      note(driver.describe(r, "synchronizing the current context"));
    }
  }
  int count = 0;
  if (driver.device_count(&count) != CUDA_SUCCESS) return failures;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    unsigned flags = 0;
    int active = 0;
    if (driver.device_get(&device, ordinal) != CUDA_SUCCESS ||
        driver.primary_state(device, &flags, &active) != CUDA_SUCCESS || active == 0) {
      continue;
    }
    CUcontext context = nullptr;
    if (driver.primary_retain(&context, device) != CUDA_SUCCESS) continue;
    if (driver.push(context) == CUDA_SUCCESS) {
      if (CUresult r = driver.synchronize(); r != CUDA_SUCCESS) {
        note(driver.describe(r, "synchronizing device " + std::to_string(ordinal)));
      }
      CUcontext popped = nullptr;
      driver.pop(&popped);
    }
    driver.primary_release(device);
  }
  return failures;
}

}  // namespace kerntime::cuda
