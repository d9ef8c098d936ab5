// SPDX-License-Identifier: Apache-2.0
// Where a measurement was taken: plain values that a report carries and gpu_status.hpp fills.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kerntime {

/// What a report says about one GPU. Fields that were not known when the report was made (for
/// example in a report read back from a minimal file) keep their defaults.
struct DeviceInfo {
  int index = -1;  ///< CUDA runtime device ordinal
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  std::size_t total_memory_bytes = 0;
  std::size_t l2_cache_bytes = 0;
  int sm_clock_khz = 0;      ///< peak SM clock
  int memory_clock_khz = 0;  ///< peak memory clock
  int memory_bus_width_bits = 0;
  bool ecc_enabled = false;
  std::string pci_bus_id;  ///< e.g. "0000:19:00.0"
};

/// Where and with what a report was measured. Versions are CUDA's encoding: 1000 * major +
/// 10 * minor (13000 is 13.0); 0 means unknown.
struct Environment {
  std::string tool_version;
  std::string created_utc;  ///< ISO 8601, e.g. "2026-11-29T16:10:00Z"
  std::string host_name;
  int driver_version = 0;   ///< highest CUDA version the driver supports
  int runtime_version = 0;  ///< CUDA runtime kerntime was built with
  std::vector<DeviceInfo> devices;
};

/// Formats a CUDA version number as Environment::driver_version holds it: 13000 -> "13.0",
/// 12080 -> "12.8"; 0 (not known) -> "unknown". Inline so that this header of plain values
/// belongs to no layer: the report writer, the views and the GPU probe all spell versions so.
inline std::string cuda_version_string(int version) {
  if (version <= 0) return "unknown";
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace kerntime
