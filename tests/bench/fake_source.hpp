// SPDX-License-Identifier: Apache-2.0
// A synthetic sample source: the sampling loop's tests decide every sample's times, clock and
// validity, and the passing of time, without a GPU.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/sample_source.hpp"

namespace kerntime::bench::testing {

/// A valid sample with these times and nothing else known.
inline RawSample sample(double event_ns, std::optional<double> cupti_ns = std::nullopt) {
  RawSample s;
  s.event_ns = event_ns;
  s.cupti_ns = cupti_ns;
  return s;
}

class FakeSource final : public SampleSource {
 public:
  /// Makes the i-th measured sample (warm-up samples are not numbered).
  std::function<RawSample(std::size_t)> make = [](std::size_t) { return sample(1000.0); };
  double seconds_per_sample = 1e-3;
  bool with_cupti = false;
  double floor_ns = 0.0;
  bench::FixedCost fixed_cost;
  double normal_mhz = 1980.0;
  std::size_t batch = 1;
  std::vector<std::string> pending_warnings;

  std::size_t warmed_up = 0;
  std::size_t taken = 0;
  std::vector<std::size_t> rounds;
  double paused_s = 0.0;

  std::size_t warm_up(std::size_t samples, double min_seconds) override {
    const double begin = clock_;
    std::size_t taken_now = 0;
    while (taken_now < samples || (samples > 0 && clock_ - begin < min_seconds)) {
      ++taken_now;
      clock_ += seconds_per_sample;
    }
    warmed_up += taken_now;
    return taken_now;
  }
  std::vector<RawSample> take(std::size_t count) override {
    rounds.push_back(count);
    std::vector<RawSample> out;
    for (std::size_t i = 0; i < count; ++i) {
      out.push_back(make(taken++));
      clock_ += seconds_per_sample;
    }
    return out;
  }
  bool cupti() const override { return with_cupti; }
  double event_floor_ns() const override { return floor_ns; }
  bench::FixedCost kernel_fixed_cost() const override { return fixed_cost; }
  double normal_clock_mhz() const override { return normal_mhz; }
  std::size_t batch_size() const override { return batch; }
  bool blocking() const override { return true; }
  bool l2_flushed() const override { return true; }
  std::vector<std::string> take_warnings() override {
    std::vector<std::string> out;
    out.swap(pending_warnings);
    return out;
  }
  double now_s() const override { return clock_; }
  void pause(double seconds) override {
    paused_s += seconds;
    clock_ += seconds;
  }

 private:
  double clock_ = 100.0;
};

}  // namespace kerntime::bench::testing
