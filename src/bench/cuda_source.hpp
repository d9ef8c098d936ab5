// SPDX-License-Identifier: Apache-2.0
// Samples on a GPU: the cold, hot and graph recipes of docs/benchmarks.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/measure.hpp>

#include "bench/device_resources.hpp"
#include "bench/sample_source.hpp"

namespace kerntime::bench {

struct CudaSourceSettings {
  MeasureMode mode = MeasureMode::cold;
  bool l2_flush = true;
  double blocking_timeout_s = 1.0;
  std::size_t batch_size = 0;  ///< hot and graph; 0: from the warm-up estimate
  double batch_target_s = 250e-6;
  std::string scope_name;           ///< the CUPTI scope of each sample's launcher calls
  Tracer* tracer = nullptr;         ///< active, or nullptr for events only
  double floor_ns = 0.0;            ///< calibrated launch floor (0 while calibrating, or none)
  FixedCost fixed_cost;             ///< the floor kernel's own GPU time, where known
  const Launcher* setup = nullptr;  ///< per-sample setup before the timed window, or none
  bool blocking_kernel = true;      ///< false: no blocking kernel and no clock check at all
  bool run_once = false;            ///< batch of one, no warm-up launches beyond the first call
  /// Each sample runs while the host only waits for it: the next sample is queued, held, before
  /// this one is released. false: the next one is queued while this one runs.
  bool quiet_host = false;
  /// How the L2 flush is done: the driver's memset of the sample's number before the blocking
  /// kernel, or one of the diagnostics (KERNTIME_L2_FLUSH, engine.cpp).
  enum class Flush {
    memset,       ///< the engine's flush
    kernel,       ///< a store kernel of the engine's instead of the memset
    constant,     ///< the memset of one byte value every sample
    after_block,  ///< the memset after the blocking kernel, right before the timed work
    read,         ///< a kernel's loads of the buffer: the L2 left holding clean lines
  };
  Flush flush = Flush::memset;
  /// 0 to 3 empty kernels before each sample's timed work (phase_padding.hpp says why); false
  /// only as a diagnostic (KERNTIME_ENGINE_PADDING=off).
  bool phase_padding = true;
};

class CudaSampleSource final : public SampleSource {
 public:
  CudaSampleSource(DeviceResources& resources, const Launcher& launcher,
                   CudaSourceSettings settings);
  /// Releases anything still held and waits for the stream; never throws.
  ~CudaSampleSource() override;
  CudaSampleSource(const CudaSampleSource&) = delete;
  CudaSampleSource& operator=(const CudaSampleSource&) = delete;

  std::size_t warm_up(std::size_t samples, double min_seconds) override;
  std::vector<RawSample> take(std::size_t count) override;
  bool cupti() const override { return tracer_ != nullptr; }
  double event_floor_ns() const override {
    return settings_.mode == MeasureMode::cold ? settings_.floor_ns : 0.0;
  }
  FixedCost kernel_fixed_cost() const override {
    return settings_.mode == MeasureMode::cold ? settings_.fixed_cost : FixedCost{};
  }
  double normal_clock_mhz() const override { return res_.normal_clock_mhz(); }
  std::size_t batch_size() const override { return batch_; }
  bool blocking() const override { return blocking_; }
  bool l2_flushed() const override { return flush_; }
  std::vector<std::string> take_warnings() override;
  double now_s() const override;
  void pause(double seconds) override;

 private:
  struct Pending {
    std::uint64_t seq = 0;
    std::uint64_t scope = 0;
    double host_ns = 0.0;
  };

  std::vector<RawSample> take_samples(std::size_t count, bool attach);
  Pending enqueue(bool release);
  RawSample complete(const Pending& pending);
  void call_payload();
  /// Calls the setup, if any; returns its host time, which is not the engine's overhead.
  double call_setup();
  /// Enqueues the L2 flush of sample `seq` (cold mode with the flush on).
  void flush_l2(std::uint64_t seq);
  /// Enqueues sample `seq`'s empty kernels before its timed work (phase_padding.hpp).
  void pad(std::uint64_t seq);
  void choose_batch();
  void capture_graph();
  void attach_cupti(std::vector<RawSample>& samples, const std::vector<std::uint64_t>& scopes);
  void drain() noexcept;

  DeviceResources& res_;
  const Launcher& launcher_;
  CudaSourceSettings settings_;
  Tracer* tracer_ = nullptr;
  std::size_t batch_ = 1;
  bool use_blocking_ = true;  ///< the blocking kernel and clock check are queued at all
  bool blocking_ = true;      ///< ... and still hold the stream (false after a timeout)
  bool flush_ = false;
  std::uint64_t timeout_ns_ = 0;
  cudaGraphExec_t graph_ = nullptr;
  std::size_t missing_cupti_ = 0;
  std::vector<std::string> warnings_;
  std::vector<std::uint64_t> last_scopes_;   ///< scope of each sample of the last round
  std::optional<cuda::PowerReading> power_;  ///< NVML's last reading, reused while fresh
  double power_read_s_ = -1.0;               ///< when it was taken (now_s()); < 0: never
};

}  // namespace kerntime::bench
