// SPDX-License-Identifier: Apache-2.0
// Merging reports of repeated runs for `kerntime report a.json b.json`: more samples per entry,
// so that a baseline can be built from several runs.
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include <kerntime/report_transforms.hpp>
#include <kerntime/error.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime {
namespace {

std::string source_of(const std::vector<std::string>& sources, std::size_t i) {
  return i < sources.size() ? sources[i] : "report " + std::to_string(i + 1);
}

void append_unique(std::vector<std::string>& list, const std::string& text) {
  for (const std::string& existing : list) {
    if (existing == text) return;
  }
  list.push_back(text);
}

}  // namespace

Report merge_reports(const std::vector<Report>& reports, const std::vector<std::string>& sources) {
  if (!sources.empty() && sources.size() != reports.size()) {
    throw Error("merge_reports: " + std::to_string(sources.size()) + " source names for " +
                std::to_string(reports.size()) + " reports.");
  }
  Report merged;
  if (reports.empty()) return merged;
  merged.environment = reports.front().environment;
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::string> first_source;  // which report each merged entry came from first

  for (std::size_t r = 0; r < reports.size(); ++r) {
    const Report& report = reports[r];
    const std::string source = source_of(sources, r);
    if (r > 0) {
      for (const std::string& difference :
           compare_environments(reports.front().environment, report.environment)) {
        append_unique(merged.warnings,
                      source + " compared with " + source_of(sources, 0) + ": " + difference);
      }
    }
    for (const std::string& warning : report.warnings) {
      append_unique(merged.warnings, reports.size() > 1 ? source + ": " + warning : warning);
    }
    for (const Entry& entry : report.entries) {
      const auto found = index.find(entry.name);
      if (found == index.end()) {
        index.emplace(entry.name, merged.entries.size());
        merged.entries.push_back(entry);
        first_source.push_back(source);
        continue;
      }
      Entry& target = merged.entries[found->second];
      if (target.unit != entry.unit || target.timer != entry.timer) {
        throw Error(source + ": entry \"" + entry.name + "\" was measured in unit '" + entry.unit +
                    "' with timer '" + entry.timer + "', but in " + first_source[found->second] +
                    " in unit '" + target.unit + "' with timer '" + target.timer +
                    "'; only like measurements can be merged.");
      }
      if (target.device != entry.device) target.device.reset();
      target.samples.insert(target.samples.end(), entry.samples.begin(), entry.samples.end());
    }
  }
  for (Entry& entry : merged.entries) {
    entry.statistics = compute_statistics(entry.samples);
  }
  return merged;
}

}  // namespace kerntime
