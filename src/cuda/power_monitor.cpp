// SPDX-License-Identifier: Apache-2.0
#include "cuda/power_monitor.hpp"

#include <dlfcn.h>

#include <cuda_runtime_api.h>

namespace kerntime::cuda {
namespace {

// NVML's C ABI, declared here because the toolkit does not always ship nvml.h: nvmlReturn_t is
// an int (0: success), nvmlDevice_t an opaque pointer.
using Device = void*;
using Init = int (*)();
using HandleByPciBusId = int (*)(const char*, Device*);
using ClockEventReasons = int (*)(Device, unsigned long long*);
using PowerUsage = int (*)(Device, unsigned int*);

struct Nvml {
  bool loaded = false;
  std::string why;
  HandleByPciBusId handle_by_pci_bus_id = nullptr;
  ClockEventReasons clock_event_reasons = nullptr;
  PowerUsage power_usage = nullptr;
};

Nvml load() {
  Nvml nvml;
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    nvml.why = "libnvidia-ml.so.1 (NVML, part of the NVIDIA driver) could not be loaded";
    return nvml;
  }
  const auto init = reinterpret_cast<Init>(dlsym(library, "nvmlInit_v2"));
  nvml.handle_by_pci_bus_id =
      reinterpret_cast<HandleByPciBusId>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
  // Drivers before 535 name it "throttle reasons"; newer ones keep that name as an alias.
  nvml.clock_event_reasons =
      reinterpret_cast<ClockEventReasons>(dlsym(library, "nvmlDeviceGetCurrentClocksEventReasons"));
  if (nvml.clock_event_reasons == nullptr) {
    nvml.clock_event_reasons = reinterpret_cast<ClockEventReasons>(
        dlsym(library, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  }
  nvml.power_usage = reinterpret_cast<PowerUsage>(dlsym(library, "nvmlDeviceGetPowerUsage"));
  if (init == nullptr || nvml.handle_by_pci_bus_id == nullptr ||
      nvml.clock_event_reasons == nullptr) {
    nvml.why = "the loaded NVML lacks the functions kerntime reads clock event reasons with";
    return nvml;
  }
  if (init() != 0) {
    nvml.why = "NVML could not be initialized (nvmlInit)";
    return nvml;
  }
  // Kept loaded and initialized for the process's life: NVML counts its users, and a reading
  // must never pay for loading it again.
  nvml.loaded = true;
  return nvml;
}

const Nvml& nvml() {
  static const Nvml loaded = load();
  return loaded;
}

}  // namespace

PowerMonitor::PowerMonitor(int device) {
  const Nvml& lib = nvml();
  if (!lib.loaded) {
    why_ = lib.why;
    return;
  }
  char bus_id[64] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) {
    cudaGetLastError();  // not sticky; leave no error behind for the caller's next check
    why_ = "CUDA gave no PCI bus id for device " + std::to_string(device);
    return;
  }
  Device handle = nullptr;
  if (lib.handle_by_pci_bus_id(bus_id, &handle) != 0 || handle == nullptr) {
    why_ = std::string{"NVML does not know the GPU at PCI bus id "} + bus_id;
    return;
  }
  handle_ = handle;
}

std::optional<PowerReading> PowerMonitor::read() const {
  if (handle_ == nullptr) return std::nullopt;
  const Nvml& lib = nvml();
  unsigned long long reasons = 0;
  if (lib.clock_event_reasons(handle_, &reasons) != 0) return std::nullopt;
  PowerReading reading;
  reading.clock_event_reasons = reasons;
  unsigned int milliwatts = 0;
  if (lib.power_usage != nullptr && lib.power_usage(handle_, &milliwatts) == 0) {
    reading.power_w = milliwatts / 1000.0;
  }
  return reading;
}

}  // namespace kerntime::cuda
