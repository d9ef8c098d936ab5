// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/statistics.hpp>

namespace kerntime {

/// The JSON schema identifier that every report carries (see docs/report-format.md).
inline constexpr const char* kReportSchema = "kerntime-report/1";

/// What a report says about one GPU. Fields that were not known when the report was made (for
/// example in a report read back from a minimal file) keep their defaults.
struct DeviceInfo {
  int index = -1;  ///< CUDA runtime device ordinal
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessor_count = 0;
  std::size_t total_memory_bytes = 0;
  std::size_t l2_cache_bytes = 0;
  int sm_clock_khz = 0;         ///< peak SM clock
  int memory_clock_khz = 0;     ///< peak memory clock
  int memory_bus_width_bits = 0;
  bool ecc_enabled = false;
  std::string pci_bus_id;  ///< e.g. "0000:19:00.0"
};

/// Where and with what a report was measured. Versions are CUDA's encoding: 1000 * major +
/// 10 * minor (13000 is 13.0); 0 means unknown.
struct Environment {
  std::string tool_version;
  std::string created_utc;  ///< ISO 8601, e.g. "2026-11-29T16:10:00Z"
  std::string host_name;
  int driver_version = 0;   ///< highest CUDA version the driver supports
  int runtime_version = 0;  ///< CUDA runtime kerntime was built with
  std::vector<DeviceInfo> devices;
};

/// One measured region: every raw sample and their statistics.
struct Entry {
  std::string name;           ///< unique within a report
  std::string unit = "ns";    ///< unit of samples and statistics; kerntime writes "ns"
  std::string timer;          ///< what produced the samples, e.g. "cuda-event"
  std::optional<int> device;  ///< device index, when all samples come from one device
  std::vector<double> samples;
  Statistics statistics;
};

/// The report model: what aggregation produces and every formatter renders.
struct Report {
  std::string schema = kReportSchema;
  Environment environment;
  std::vector<Entry> entries;
  std::vector<std::string> warnings;  ///< things a reader must know before trusting numbers

  /// The entry called `name`, or nullptr.
  const Entry* find(const std::string& name) const;
};

}  // namespace kerntime
