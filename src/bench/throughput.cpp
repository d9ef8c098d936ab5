// SPDX-License-Identifier: Apache-2.0
#include <kerntime/counter.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime {

double peak_bandwidth_gb_per_s(const DeviceInfo& device) {
  if (device.memory_clock_khz <= 0 || device.memory_bus_width_bits <= 0) return 0.0;
  // kHz x 1e3 = transfers per second per pin pair; x 2 for double data rate; bits / 8 = bytes.
  const double bytes_per_s = 2.0 * static_cast<double>(device.memory_clock_khz) * 1e3 *
                             static_cast<double>(device.memory_bus_width_bits) / 8.0;
  return bytes_per_s / 1e9;
}

Throughput compute_throughput(const Work& work, double nanoseconds, double peak_gb_per_s) {
  Throughput t;
  if (!(nanoseconds > 0.0)) return t;
  if (work.bytes > 0.0) {
    t.gb_per_s = work.bytes / nanoseconds;  // bytes per ns is 10^9 bytes per s
    if (peak_gb_per_s > 0.0) t.peak_bandwidth_percent = 100.0 * *t.gb_per_s / peak_gb_per_s;
  }
  if (work.flops > 0.0) t.tflop_per_s = work.flops / nanoseconds / 1e3;
  if (work.elements > 0.0) t.elements_per_s = work.elements / nanoseconds * 1e9;
  return t;
}

std::optional<double> counter_result(const Counter& counter, double headline_ns) {
  if (counter.kind == CounterKind::value) return counter.value;
  if (!(headline_ns > 0.0)) return std::nullopt;
  return counter.value / headline_ns * 1e9;
}

}  // namespace kerntime
