// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include <kerntime/environment.hpp>
#include <kerntime/export.hpp>

namespace kerntime {

/// What one call of a measured launcher does, as its author declares it: bytes read plus bytes
/// written in device memory, floating-point operations, and elements processed (NVBench's
/// add_element_count: the input's size, for items per second). Zero means "not declared".
/// A report entry of the engine keeps it (MeasurementInfo::work), so what is added here is also
/// written and read in its JSON (report/measurement_info_json.cpp).
struct Work {
  double bytes = 0.0;
  double flops = 0.0;
  double elements = 0.0;
};

/// Rates derived from declared Work and a GPU time; each is empty when it cannot be computed
/// (nothing declared, a zero time, or an unknown peak).
struct Throughput {
  std::optional<double> gb_per_s;                ///< 10^9 bytes per second
  std::optional<double> tflop_per_s;             ///< 10^12 floating-point operations per second
  std::optional<double> peak_bandwidth_percent;  ///< gb_per_s as a share of the device's peak
  std::optional<double> elements_per_s;          ///< declared elements per second
};

/// The device's theoretical DRAM bandwidth in GB/s, as NVBench computes it:
/// 2 (double data rate) x memory clock x bus width / 8. 0 when either is unknown.
KERNTIME_API double peak_bandwidth_gb_per_s(const DeviceInfo& device);

/// Rates of `work` done in `nanoseconds`; `peak_gb_per_s` <= 0 leaves the percentage empty.
KERNTIME_API Throughput compute_throughput(const Work& work, double nanoseconds,
                                           double peak_gb_per_s);

}  // namespace kerntime
