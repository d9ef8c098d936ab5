// SPDX-License-Identifier: Apache-2.0
// A fixed report for golden-file and round-trip tests: every unit from ns to s, a name with
// Markdown and CSV syntax in it, an entry with one sample and one with none, and a warning.
// Statistics are written out rather than computed, so the goldens test formatting only.
#pragma once

#include <kerntime/report.hpp>

namespace kerntime::testing {

inline Statistics sample_statistics(std::size_t count, double min, double max, double mean,
                                    double median, double q1, double q3, double p95, double p99,
                                    double mad) {
  Statistics s;
  s.count = count;
  s.min = min;
  s.max = max;
  s.mean = mean;
  s.median = median;
  s.q1 = q1;
  s.q3 = q3;
  s.p95 = p95;
  s.p99 = p99;
  s.mad = mad;
  return s;
}

inline void set_spread(Statistics& s, double stddev, double low, double high) {
  s.stddev = stddev;
  s.relative_noise = stddev / s.mean;
  s.median_ci = Interval{low, high};
  s.median_ci_level = 0.95;
  s.median_ci_method = "bootstrap";
}

inline Report sample_report() {
  Report report;
  report.environment.tool_version = "0.1.0";
  report.environment.created_utc = "2026-11-29T16:10:00Z";
  report.environment.host_name = "gpu-node-7";
  report.environment.driver_version = 13000;
  report.environment.runtime_version = 12080;
  DeviceInfo h200;
  h200.index = 0;
  h200.name = "NVIDIA H200";
  h200.compute_capability_major = 9;
  h200.compute_capability_minor = 0;
  h200.multiprocessor_count = 132;
  h200.total_memory_bytes = 150754820096;
  h200.l2_cache_bytes = 62914560;
  h200.sm_clock_khz = 1980000;
  h200.memory_clock_khz = 3201000;
  h200.memory_bus_width_bits = 6144;
  h200.ecc_enabled = true;
  h200.pci_bus_id = "0000:19:00.0";
  report.environment.devices.push_back(h200);

  Entry saxpy{"saxpy", "ns", "cuda-event", 0, {812, 815.5, 809, 830.25, 812, 811, 813.5, 810}, {}};
  saxpy.statistics =
      sample_statistics(8, 809, 830.25, 814.15625, 812, 810.75, 814, 825.0875, 829.2175, 1.75);
  set_spread(saxpy.statistics, 6.807214528928639, 810, 815.5);

  Entry gemm{"gemm<float, 128>",
             "ns",
             "cupti-kernel",
             0,
             {1006123, 1007240.5, 1005990, 1012000, 1006500},
             {}};
  gemm.statistics = sample_statistics(5, 1005990, 1012000, 1007570.7, 1006500, 1006123, 1007240.5,
                                      1011048.1, 1011809.62, 510);
  set_spread(gemm.statistics, 2523.320074822059, 1006123, 1007240.5);

  Entry reduce{"reduce | \"fast\"", "ns", "cuda-event", 0, {2593.25, 2601, 2588.5, 2599.75}, {}};
  reduce.statistics = sample_statistics(4, 2588.5, 2601, 2595.625, 2596.5, 2592.0625, 2600.0625,
                                        2600.8125, 2600.9625, 3.875);
  set_spread(reduce.statistics, 5.83987728181566, 2588.5, 2601);

  Entry host_sync{"host_sync", "ns", "cuda-event", 0, {1.25e9, 1.2625e9, 1.2375e9}, {}};
  host_sync.statistics = sample_statistics(3, 1.2375e9, 1.2625e9, 1.25e9, 1.25e9, 1.24375e9,
                                           1.25625e9, 1.26125e9, 1.26225e9, 1.25e7);
  set_spread(host_sync.statistics, 1.25e7, 1.2375e9, 1.2625e9);

  // 999.96 ns rounds to 4 significant digits as 1.000 us.
  Entry one_shot{"one-shot", "ns", "cuda-event", 0, {999.96}, {}};
  one_shot.statistics =
      sample_statistics(1, 999.96, 999.96, 999.96, 999.96, 999.96, 999.96, 999.96, 999.96, 0);

  Entry empty{"empty", "ns", "cuda-event", std::nullopt, {}, {}};

  report.entries = {saxpy, gemm, reduce, host_sync, one_shot, empty};
  report.warnings = {"SM clock of device 0 fell to 1755 MHz during \"gemm<float, 128>\"",
                     "\"empty\" has no samples"};
  return report;
}

}  // namespace kerntime::testing
