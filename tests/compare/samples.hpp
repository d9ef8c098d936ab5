// SPDX-License-Identifier: Apache-2.0
// Synthetic GPU timings for the compare tests: right-skewed noise with occasional outliers,
// generated from a seed so every run sees the same numbers.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <kerntime/report.hpp>

namespace kerntime::testing {

/// How noisy simulated samples are. The defaults are what kernel timings on a shared GPU look
/// like: a few percent lognormal spread, 2 % of samples hit by a preemption or clock dip that
/// adds 10-50 %, and a per-run offset (clocks and placement differ from run to run).
struct NoiseModel {
  double sigma = 0.03;         ///< lognormal shape: about 3 % spread
  double outlier_rate = 0.02;  ///< probability of an outlier sample
  double outlier_low = 0.10;   ///< outliers are slower by a uniform fraction in [low, high]
  double outlier_high = 0.50;
  double run_offset_sigma = 0.005;  ///< per-run multiplicative offset, normal, 0.5 %
};

/// `count` samples around `median_ns * factor` for one simulated run.
inline std::vector<double> simulate_run(std::mt19937_64& rng, std::size_t count, double median_ns,
                                        double factor, const NoiseModel& noise = {}) {
  std::normal_distribution<double> offset(0.0, noise.run_offset_sigma);
  std::lognormal_distribution<double> spread(0.0, noise.sigma);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double run_scale = median_ns * factor * (1.0 + offset(rng));
  std::vector<double> samples(count);
  for (double& v : samples) {
    v = run_scale * spread(rng);
    if (unit(rng) < noise.outlier_rate) {
      v *= 1.0 + noise.outlier_low + (noise.outlier_high - noise.outlier_low) * unit(rng);
    }
  }
  return samples;
}

/// An entry called `name` holding `samples` (unit ns, no timer).
inline Entry make_entry(const std::string& name, std::vector<double> samples) {
  Entry entry;
  entry.name = name;
  entry.samples = std::move(samples);
  return entry;
}

/// How many times `part` occurs in `text`.
inline std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

}  // namespace kerntime::testing
