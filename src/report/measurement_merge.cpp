// SPDX-License-Identifier: Apache-2.0
#include "report/measurement_merge.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime::report {
namespace {

// Most settled first; a reason not listed (from a later kerntime) counts as least settled.
constexpr const char* kStopReasons[] = {"fixed-count", "stable", "noise", "max-samples", "timeout"};

std::ptrdiff_t unsettledness(const std::string& reason) {
  const auto found = std::find(std::begin(kStopReasons), std::end(kStopReasons), reason);
  return found - std::begin(kStopReasons);
}

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  return median(std::move(values));
}

// The comma-separated names of both, each once, in the order first seen: the reasons any part's
// samples were slowed by.
std::string union_of_names(std::string merged, const std::string& more) {
  std::istringstream names{more};
  for (std::string name; std::getline(names, name, ',');) {
    if (name.empty() || ("," + merged + ",").find("," + name + ",") != std::string::npos) continue;
    merged += (merged.empty() ? "" : ",") + name;
  }
  return merged;
}

}  // namespace

void refresh_throughput(MeasurementInfo& info, const Statistics& statistics) {
  info.throughput = statistics.count > 0 ? compute_throughput(info.work, statistics.median,
                                                              info.peak_bandwidth_gb_per_s)
                                         : Throughput{};
}

std::shared_ptr<const MeasurementInfo> merge_measurements(
    const std::vector<const MeasurementInfo*>& parts, const Statistics& statistics) {
  const auto first = std::find_if(parts.begin(), parts.end(),
                                  [](const MeasurementInfo* part) { return part != nullptr; });
  if (first == parts.end()) return nullptr;
  MeasurementInfo merged = **first;
  merged.invalid_samples = 0;
  merged.throttled_samples = 0;
  merged.slowed_samples = 0;
  merged.clock_event_reasons.clear();
  merged.wall_time_s = 0.0;
  std::vector<double> floors;
  std::vector<double> fixed_costs;
  std::vector<double> clocks;
  std::vector<double> overheads;
  std::vector<double> sums;
  std::vector<double> activities;
  std::vector<double> power;
  for (const MeasurementInfo* part : parts) {
    if (part == nullptr) continue;
    merged.invalid_samples += part->invalid_samples;
    merged.throttled_samples += part->throttled_samples;
    merged.slowed_samples += part->slowed_samples;
    merged.clock_event_reasons =
        union_of_names(merged.clock_event_reasons, part->clock_event_reasons);
    if (part->median_power_w) power.push_back(*part->median_power_w);
    merged.wall_time_s += part->wall_time_s;
    if (part->host_overhead_ns > 0.0) overheads.push_back(part->host_overhead_ns);
    merged.l2_flushed = merged.l2_flushed && part->l2_flushed;
    merged.blocking_kernel = merged.blocking_kernel && part->blocking_kernel;
    if (unsettledness(part->stop_reason) > unsettledness(merged.stop_reason)) {
      merged.stop_reason = part->stop_reason;
      merged.stop_detail = part->stop_detail;
    }
    floors.push_back(part->event_floor_ns);
    if (part->kernel_fixed_cost_ns) {
      fixed_costs.push_back(*part->kernel_fixed_cost_ns);
      if (merged.kernel_fixed_cost_source.empty()) {
        merged.kernel_fixed_cost_source = part->kernel_fixed_cost_source;
      }
    }
    if (part->median_sm_clock_mhz) clocks.push_back(*part->median_sm_clock_mhz);
    if (part->median_cupti_sum_ns) sums.push_back(*part->median_cupti_sum_ns);
    if (part->activities_per_call) activities.push_back(*part->activities_per_call);
  }
  merged.event_floor_ns = median_of(floors).value_or(0.0);
  merged.kernel_fixed_cost_ns = median_of(fixed_costs);
  merged.median_sm_clock_mhz = median_of(clocks);
  merged.median_cupti_sum_ns = median_of(sums);
  merged.activities_per_call = median_of(activities);
  merged.median_power_w = median_of(power);
  merged.host_overhead_ns = median_of(overheads).value_or(0.0);
  refresh_throughput(merged, statistics);
  return std::make_shared<const MeasurementInfo>(std::move(merged));
}

}  // namespace kerntime::report
