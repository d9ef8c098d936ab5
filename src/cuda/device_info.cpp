// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/gpu_status.hpp>

#include "cuda/cuda_check.hpp"

namespace kerntime {
namespace {

int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  cuda::check_cuda(cudaDeviceGetAttribute(&value, attr, device), "cudaDeviceGetAttribute");
  return value;
}

}  // namespace

DeviceInfo query_device(int device) {
  cudaDeviceProp prop{};
  cuda::check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  DeviceInfo info;
  info.index = device;
  info.name = prop.name;
  info.compute_capability_major = prop.major;
  info.compute_capability_minor = prop.minor;
  info.multiprocessor_count = prop.multiProcessorCount;
  info.total_memory_bytes = prop.totalGlobalMem;
  info.l2_cache_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.memory_bus_width_bits = prop.memoryBusWidth;
  info.ecc_enabled = prop.ECCEnabled != 0;
  // CUDA 13 dropped the clock fields from cudaDeviceProp; the attributes remain.
  info.sm_clock_khz = attribute(cudaDevAttrClockRate, device);
  info.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) == cudaSuccess) info.pci_bus_id = bus_id;
  return info;
}

std::vector<DeviceInfo> query_devices() {
  require_gpu();
  int count = 0;
  cuda::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  std::vector<DeviceInfo> devices;
  devices.reserve(static_cast<std::size_t>(count));
  for (int device = 0; device < count; ++device)
    devices.push_back(query_device(device));
  return devices;
}

}  // namespace kerntime
