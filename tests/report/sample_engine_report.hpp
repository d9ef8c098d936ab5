// SPDX-License-Identifier: Apache-2.0
// A fixed report as the benchmark engine writes one: headline entries with their measurement
// (a CUPTI copy with declared bytes, a hot sgemm with bytes and flops, an events-only spin
// with a fixed cost from the cache, a sort with elements and custom counters, and a spin
// without a fixed cost) and their /events twins, on the environment of sample_report(). For
// golden files of the views and the JSON.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/counter.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

#include "report/sample_report.hpp"

namespace kerntime::testing {

inline MeasurementInfo sample_measurement_info(const std::string& mode, const Work& work) {
  MeasurementInfo m;
  m.mode = mode;
  m.stop_reason = "stable";
  m.stop_detail = "95% CI of the median within +-0.31% after 20 samples";
  m.warmup_samples = 2;
  m.batch_size = 1;
  m.l2_flushed = mode == "cold";
  m.blocking_kernel = true;
  m.event_floor_ns = mode == "cold" ? 3008.0 : 0.0;
  m.median_sm_clock_mhz = 1977.0;
  m.normal_sm_clock_mhz = 1980.0;
  m.work = work;
  m.peak_bandwidth_gb_per_s = 4916.736;
  return m;
}

inline Entry sample_engine_entry(const std::string& name, const std::string& timer,
                                 std::vector<double> samples,
                                 std::optional<MeasurementInfo> measurement) {
  Entry entry{name, "ns", timer, 0, std::move(samples), {}};
  entry.statistics = compute_statistics(entry.samples);
  if (measurement) {
    measurement->throughput = compute_throughput(measurement->work, entry.statistics.median,
                                                 measurement->peak_bandwidth_gb_per_s);
  }
  if (measurement) entry.measurement = std::make_shared<const MeasurementInfo>(*measurement);
  return entry;
}

inline Report sample_engine_report() {
  Report report = sample_report();
  report.entries.clear();
  report.warnings = {
      "headlines are CUPTI GPU spans of each sample's work (timer cupti-kernel); entries ending "
      "in /events hold the raw event times"};

  MeasurementInfo copy = sample_measurement_info("cold", {2.0 * 67108864, 0.0});
  copy.kernel_fixed_cost_ns = 608.0;
  copy.kernel_fixed_cost_source = kFixedCostFromTracer;
  copy.throttled_samples = 1;
  report.entries.push_back(sample_engine_entry("device_copy/bytes=67108864/cold", "cupti-kernel",
                                               {34304, 34400, 34272, 34336, 34368}, copy));
  report.entries.push_back(sample_engine_entry("device_copy/bytes=67108864/cold/events",
                                               "cuda-event", {36704, 36800, 36672, 36736, 36768},
                                               std::nullopt));

  MeasurementInfo gemm =
      sample_measurement_info("hot", {3.0 * 4 * 512 * 512, 2.0 * 512 * 512 * 512});
  gemm.batch_size = 64;
  gemm.stop_reason = "timeout";
  gemm.stop_detail = "5 s passed before the 95% CI of the median was within +-0.50%";
  report.entries.push_back(sample_engine_entry("sgemm/variant=tiled/n=512/hot", "cupti-kernel",
                                               {24736, 24784, 24752, 24800}, gemm));

  MeasurementInfo spin = sample_measurement_info("cold", {});
  spin.kernel_fixed_cost_ns = 608.0;
  spin.kernel_fixed_cost_source = kFixedCostFromCache;
  report.entries.push_back(sample_engine_entry("spin/ns=2000/cold", "cuda-event-corrected",
                                               {2560, 2592, 2592, 2624}, spin));

  // Elements (items/s) and custom counters: a rate and a value.
  MeasurementInfo sort = sample_measurement_info("cold", {2.0 * 4 * 1048576, 0.0, 1048576.0});
  sort.kernel_fixed_cost_ns = 608.0;
  sort.kernel_fixed_cost_source = kFixedCostFromTracer;
  sort.counters = {{"segments/s", 32768.0, CounterKind::rate}, {"bytes/elem", 4.0}};
  report.entries.push_back(sample_engine_entry("segment_sort/T=float/n=1048576/cold",
                                               "cupti-kernel", {812000, 815000, 810000, 813000},
                                               sort));

  MeasurementInfo unknown = sample_measurement_info("cold", {});
  unknown.invalid_samples = 2;
  unknown.blocking_kernel = false;
  report.entries.push_back(sample_engine_entry("spin/ns=10000/cold", "cuda-event-corrected",
                                               {9952, 9984, 9920}, unknown));
  return report;
}

}  // namespace kerntime::testing
