// SPDX-License-Identifier: Apache-2.0
// Synthetic records and settings the recorder's tests share: a kernel record of a given name,
// start, duration and correlation id, the recorder's settings, and a kernel's summary row.
#pragma once

#include <cstdint>
#include <string>

#include <kerntime/report.hpp>

#include "inject/run_settings.hpp"
#include "trace/raw_records.hpp"

namespace kerntime::inject::recorder_test {

inline trace::RawKernel kernel(const char* name, std::uint64_t start, std::uint64_t duration,
                               std::uint32_t correlation = 0) {
  trace::RawKernel k;
  k.name = name;
  k.start_ns = start;
  k.end_ns = start + duration;
  k.correlation_id = correlation;
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  return k;
}

inline RunSettings settings() {
  RunSettings s;
  s.output_directory = "/tmp";
  return s;
}

inline const KernelSummary* row(const Report& report, const std::string& name) {
  for (const KernelSummary& r : report.trace->kernel_summary) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

}  // namespace kerntime::inject::recorder_test
