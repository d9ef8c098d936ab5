// SPDX-License-Identifier: Apache-2.0
#include "format/report/summary.hpp"

#include <optional>
#include <string_view>

#include <fmt/format.h>

#include <kerntime/environment.hpp>
#include <kerntime/format.hpp>

#include "format/name_column.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {
namespace {

// Percent with two decimals: noise below 0.01 % is indistinguishable from none in practice.
std::string percent(double fraction) {
  return text::format_percent_value(fraction * 100.0, 2);
}

std::string level_percent(double level) {
  return text::format_percent(level);
}

// The confidence level all intervals share, or nothing when entries disagree; then each cell
// names its own level instead of the column title.
std::optional<double> common_ci_level(const Report& report) {
  std::optional<double> level;
  for (const Entry& entry : report.entries) {
    if (!entry.statistics.median_ci) continue;
    if (level && *level != entry.statistics.median_ci_level) return std::nullopt;
    level = entry.statistics.median_ci_level;
  }
  return level ? level : Statistics{}.median_ci_level;
}

std::string join(const std::vector<std::string>& items) {
  std::string joined;
  for (const std::string& item : items) {
    joined += (joined.empty() ? "" : ", ") + item;
  }
  return joined;
}

std::string device_line(const DeviceInfo& d) {
  std::vector<std::string> parts;
  if (!d.name.empty()) parts.push_back(printable(d.name));
  if (d.compute_capability_major > 0) {
    parts.push_back(fmt::format("compute capability {}.{}", d.compute_capability_major,
                                d.compute_capability_minor));
  }
  if (d.multiprocessor_count > 0) parts.push_back(fmt::format("{} SMs", d.multiprocessor_count));
  if (d.total_memory_bytes > 0) {
    parts.push_back(fmt::format(
        "{:.1f} GiB", static_cast<double>(d.total_memory_bytes) / (1024.0 * 1024.0 * 1024.0)));
  }
  if (d.sm_clock_khz > 0) parts.push_back(fmt::format("SM clock {} MHz", d.sm_clock_khz / 1000));
  if (!d.pci_bus_id.empty()) parts.push_back("PCI " + printable(d.pci_bus_id));
  // Whether ECC is on is only worth saying about a device that was actually queried.
  if (!parts.empty()) parts.push_back(d.ecc_enabled ? "ECC on" : "ECC off");
  const std::string label = d.index >= 0 ? fmt::format("device {}", d.index) : "device";
  return parts.empty() ? label : label + ": " + join(parts);
}

}  // namespace

Summary summarize(const Report& report, NameStyle names) {
  const std::optional<double> ci_level = common_ci_level(report);
  const std::string ci_title =
      ci_level ? "Median " + level_percent(*ci_level) + " CI" : std::string("Median CI");
  Summary summary;
  summary.grid.empty_text = "(no entries)";
  summary.grid.columns = {
      {"Name", false}, {"Samples"}, {"Median"}, {ci_title}, {"Mean"},
      {"Min"},         {"Max"},     {"StdDev"}, {"Noise"},
  };

  const NameColumn shown(names, report.entries.size(), [&report](std::size_t i) {
    return std::string_view{report.entries[i].name};
  });
  summary.names_note = names_note(shown.shortened(), shown.numbered());
  for (const Entry& entry : report.entries) {
    const Statistics& s = entry.statistics;
    const auto duration = [&](double ns) {
      return s.count > 0 ? format_duration(ns) : std::string(kMissingCell);
    };
    std::string ci = kMissingCell;
    if (s.median_ci) {
      ci = fmt::format("[{}, {}]", format_duration(s.median_ci->low),
                       format_duration(s.median_ci->high));
      if (!ci_level) ci += " at " + level_percent(s.median_ci_level);
    }
    std::vector<std::string> row = {printable(shown(summary.grid.rows.size())),
                                    std::to_string(s.count),
                                    duration(s.median),
                                    ci,
                                    duration(s.mean),
                                    duration(s.min),
                                    duration(s.max),
                                    s.stddev ? format_duration(*s.stddev) : kMissingCell,
                                    s.relative_noise ? percent(*s.relative_noise) : kMissingCell};
    for (const std::string& cell : row) {
      summary.has_missing |= cell == kMissingCell;
    }
    summary.grid.rows.push_back(std::move(row));
  }
  return summary;
}

std::vector<std::string> environment_lines(const Environment& env) {
  std::vector<std::string> parts;
  if (!env.tool_version.empty()) parts.push_back("kerntime " + env.tool_version);
  if (!env.host_name.empty()) parts.push_back("host " + printable(env.host_name));
  if (!env.created_utc.empty()) parts.push_back(printable(env.created_utc));
  if (env.driver_version != 0) {
    parts.push_back("CUDA driver " + cuda_version_string(env.driver_version));
  }
  if (env.runtime_version != 0) {
    parts.push_back("runtime " + cuda_version_string(env.runtime_version));
  }
  std::vector<std::string> lines;
  if (!parts.empty()) lines.push_back(join(parts));
  for (const DeviceInfo& device : env.devices) {
    lines.push_back(device_line(device));
  }
  return lines;
}

}  // namespace kerntime::format
