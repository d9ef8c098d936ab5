// SPDX-License-Identifier: Apache-2.0
// NVML's view of one GPU's power state: the reasons its clock is held down and its power draw.
// libnvidia-ml is loaded at run time (dlopen), never linked, so a machine or container without it
// still measures; the readings are then simply absent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kerntime::cuda {

/// One NVML reading.
struct PowerReading {
  std::uint64_t clock_event_reasons = 0;  ///< NVML's clocks event reasons (clock_event_reasons.hpp)
  std::optional<double> power_w;          ///< power draw, where the GPU reports it
};

/// Reads one device's power state. Construction finds the device in NVML by its PCI bus id (so
/// CUDA_VISIBLE_DEVICES and NVML's own order cannot mix two GPUs up); it loads NVML once per
/// process. Thread-safe: reading changes nothing.
class PowerMonitor {
 public:
  /// `device` is a CUDA ordinal. Never throws: without NVML, or without the device in it,
  /// available() is false and why() says why.
  explicit PowerMonitor(int device);

  bool available() const { return handle_ != nullptr; }
  /// Why there are no readings, in plain words; "" when available.
  const std::string& why() const { return why_; }
  /// The state now (two NVML queries, some microseconds); none when unavailable or NVML failed.
  std::optional<PowerReading> read() const;

 private:
  void* handle_ = nullptr;  ///< nvmlDevice_t
  std::string why_;
};

}  // namespace kerntime::cuda
