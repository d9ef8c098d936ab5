// SPDX-License-Identifier: Apache-2.0
// What the engine keeps per device and reuses for every sample: created once, before any
// measurement, so that nothing is allocated or created inside a sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <cuda_runtime_api.h>

#include <kerntime/report.hpp>

#include "bench/engine_kernels.hpp"
#include "bench/fixed_cost.hpp"
#include "cuda/device_guard.hpp"
#include "cuda/power_monitor.hpp"

namespace kerntime::bench {

class DeviceResources {
 public:
  /// Needs `device` current. Creates the stream, the event pairs and the control block.
  explicit DeviceResources(int device);
  /// Waits for the stream and frees everything; never throws.
  ~DeviceResources();
  DeviceResources(const DeviceResources&) = delete;
  DeviceResources& operator=(const DeviceResources&) = delete;

  /// Runs each engine kernel once, the first time it is called, so that lazy module loading
  /// never happens behind a blocking kernel (where it would deadlock). Measurements without the
  /// blocking kernel never call it: under a profiler the engine then launches no kernel at all.
  void load_engine_kernels();

  /// The L2 flush buffer: cudaDevAttrL2CacheSize bytes, allocated on first use and kept.
  void* flush_buffer();
  std::size_t flush_bytes() const { return l2_bytes_; }

  /// Stores `seq` into the flag the blocking kernels poll: samples up to `seq` may run.
  void release(std::uint64_t seq);
  /// Releases every sample issued so far (and no later one).
  void release_issued() { release(last_seq_); }
  /// The device's report for `seq`'s slot, read after the slot's stop event completed.
  SlotReport report(std::uint64_t seq) const;

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  cudaEvent_t start_event(std::uint64_t seq) const { return start_[seq % kSlots]; }
  cudaEvent_t stop_event(std::uint64_t seq) const { return stop_[seq % kSlots]; }
  /// Recorded after the clock check: once it completed, the slot's report is final.
  cudaEvent_t done_event(std::uint64_t seq) const { return done_[seq % kSlots]; }
  HostControl* mapped_control() const { return mapped_; }
  StartReading* starts() const { return starts_; }
  unsigned clock_blocks() const { return clock_blocks_; }
  const DeviceInfo& info() const { return info_; }
  double normal_clock_mhz() const { return info_.sm_clock_khz / 1000.0; }
  /// NVML's readings of this device's clock event reasons and power draw.
  const cuda::PowerMonitor& power() const { return power_; }

  /// Sequence numbers of samples; never reused, so stale reports can be told apart.
  std::uint64_t next_seq() { return ++last_seq_; }

  /// The calibrated launch floor, per tracer state (CUPTI changes GPU-side timing a little).
  std::optional<double> floor_ns[2];
  /// The floor kernel's own GPU time once known (a calibration with CUPTI, or remembered), or
  /// why not; `fixed_cost_settled` once nothing more will be tried without a Tracer.
  FixedCost fixed_cost;
  bool fixed_cost_settled = false;
  /// The GPU for remembering the fixed cost (fixed_cost.hpp).
  const FixedCostKey& fixed_cost_key() const { return key_; }

 private:
  void free_all() noexcept;

  int device_ = 0;
  DeviceInfo info_;
  FixedCostKey key_;
  cuda::PowerMonitor power_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_[kSlots] = {};
  cudaEvent_t stop_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
  HostControl* host_ = nullptr;
  HostControl* mapped_ = nullptr;
  StartReading* starts_ = nullptr;
  void* flush_ = nullptr;
  std::size_t l2_bytes_ = 0;
  unsigned clock_blocks_ = 1;
  std::uint64_t last_seq_ = 0;
  bool kernels_loaded_ = false;
};

}  // namespace kerntime::bench
